import { Link, useActionData } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/add-user";
import { ActionForm, PageAnswer, useActionForm } from "#app/components/ActionForm.tsx";
import { Badge } from "#app/components/DataTable.tsx";
import { SelectField, TextField } from "#app/components/forms.tsx";
import { SingleFieldForm } from "#app/components/SingleFieldForm.tsx";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { ROLE_SUMMARY, staffRoles } from "#domain/capabilities.ts";
import { inviteSchema, roleSchema } from "#domain/staff-forms.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "users");
  return { users: await context.services.adminUsers.list(), me: viewer.email.toLowerCase() };
}

const idOnly = z.object({ id: z.string().max(100) });

const ONLY_ADMIN = "The admin user's role is Admin: invite other staff below, in their role.";

/** The users screen's forms: the spec's admin user (add), and the staff's invite, change of role and removal. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "users");
  const form = await request.formData();
  const { adminUsers, staff } = context.services;
  switch (form.get("intent")) {
    case "invite":
      return formAction(form, {
        schema: inviteSchema,
        run: (input) => staff.invite(input, viewer),
        success: ({ setPassword }) =>
          setPassword ? "Invitation sent: a link to choose a password" : "Invitation sent: they can sign in now",
        reset: true,
      });
    case "role":
      return formAction(form, {
        schema: roleSchema.extend(idOnly.shape),
        run: ({ id, userRole }) => adminUsers.setRole(id, { userRole }, viewer),
        success: "Role is changed",
      });
    case "remove":
      return formAction(form, {
        schema: idOnly,
        run: ({ id }) => adminUsers.remove(id, viewer),
        success: "Staff member is removed",
      });
    default:
      return formAction(form, {
        // The spec's hidden userRole: 'Admin', the only value this form offers (the staff's roles are set below).
        schema: z.looseObject({ userRole: z.literal("Admin", { error: ONLY_ADMIN }).default("Admin") }),
        run: (input) => adminUsers.create(input, viewer),
        success: "Admin user is added",
        reset: true,
      });
  }
}

export const meta: Route.MetaFunction = () => [{ title: "Admin user" }, { name: "robots", content: "noindex" }];

type StaffMember = Route.ComponentProps["loaderData"]["users"][number];

/**
 * The admin user (spec 2: with one Admin record only its edit link shows; with none, the add form), then the staff:
 * invite by email, change a role, remove (decision 036).
 */
export default function AddUser({ loaderData: { users, me } }: Route.ComponentProps) {
  const admins = users.filter((u) => u.userRole === "Admin");
  // Without JavaScript, a removal's answer comes with the page, whose list no longer has the row (nor its form).
  const answered = (useActionData() as { form?: unknown } | undefined)?.form;
  const removedForm =
    typeof answered === "string" && answered.startsWith("remove:") && !users.some((u) => `remove:${u._id}` === answered)
      ? answered
      : undefined;
  return (
    <>
      <AdminHeader
        title="Admin user"
        lead="The accounts whose email is listed here (once confirmed) run the back office, each in its role."
      />
      <AdminAccount admins={admins} />

      <section aria-labelledby="staff-heading" className="mt-8 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
        <h2 id="staff-heading" className="font-serif text-xl text-forest">
          Staff
        </h2>
        <dl className="mt-2 grid gap-1 text-sm text-mist">
          {staffRoles.values.map((role) => (
            <div key={role}>
              <dt className="inline font-semibold text-ink">{role}: </dt>
              <dd className="inline">{ROLE_SUMMARY[role]}</dd>
            </div>
          ))}
        </dl>
        {removedForm ? (
          <div className="mt-6">
            <PageAnswer form={removedForm} />
          </div>
        ) : null}
        <ul className="mt-6 divide-y divide-linen" data-testid="staff-list">
          {users.map((u) => (
            <StaffRow key={u._id} member={u} isMe={u.userEmail.toLowerCase() === me} />
          ))}
        </ul>
        <InviteForm />
      </section>
    </>
  );
}

/** The Admin record: with one, its edit link; with none (or several), the add form. */
function AdminAccount({ admins }: { admins: StaffMember[] }) {
  const [only] = admins;
  return (
    <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
      {admins.length === 1 && only ? (
        <div className="flex flex-wrap items-center justify-between gap-4">
          <p className="text-sm">
            {only.userEmail} · <span className="text-mist">{only.userRole}</span>
          </p>
          <Link to={`/admin-user/${only._id}`} className="btn-dark">
            Edit Admin User
          </Link>
        </div>
      ) : (
        <SingleFieldForm
          name="userEmail"
          label="Admin email"
          intent="add"
          submit="Add Admin"
          hidden={{ userRole: "Admin" }}
        />
      )}
    </div>
  );
}

function InviteForm() {
  const inviteForm = useActionForm({ id: "invite" });
  return (
    <>
      <h3 className="mt-8 font-serif text-lg text-forest">Invite a staff member</h3>
      <p className="mt-1 text-sm text-mist">
        They get an email with a link to choose their password (valid for 7 days), or, with a confirmed account already,
        a note that they can sign in.
      </p>
      <ActionForm
        handle={inviteForm}
        intent="invite"
        className="mt-4 flex flex-wrap items-end gap-3"
        testId="invite-form"
      >
        <TextField label="Email" name="userEmail" type="email" required className="min-w-64 flex-1" />
        <SelectField
          label="Role"
          name="userRole"
          options={staffRoles.options()}
          defaultValue="Editor"
          required
          className="min-w-40"
        />
        <button type="submit" className="btn-dark" disabled={inviteForm.busy}>
          {inviteForm.busy ? "Sending…" : "Send invitation"}
        </button>
      </ActionForm>
    </>
  );
}

function StaffRow({ member, isMe }: { member: StaffMember; isMe: boolean }) {
  const roleForm = useActionForm({ id: `role:${member._id}`, defaultValue: { userRole: member.userRole } });
  const removeForm = useActionForm({ id: `remove:${member._id}` });
  return (
    <li className="flex flex-wrap items-end justify-between gap-4 py-4" data-testid="staff-row">
      <div className="min-w-0">
        <p className="text-sm break-all">
          {member.userEmail}
          {isMe ? <span className="text-mist"> (you)</span> : null}
        </p>
        <p className="mt-1">
          <Badge tone={staffRoles.tone(member.userRole)}>{member.userRole}</Badge>
        </p>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <ActionForm handle={roleForm} intent="role" hidden={{ id: member._id }} className="flex items-end gap-2">
          <SelectField
            label={`Role of ${member.userEmail}`}
            hideLabel
            name="userRole"
            options={staffRoles.options()}
            required
          />
          <button type="submit" className="btn-outline px-4 py-2 text-xs" disabled={roleForm.busy}>
            Change role
          </button>
        </ActionForm>
        <ActionForm
          handle={removeForm}
          intent="remove"
          hidden={{ id: member._id }}
          onSubmit={(e) => {
            if (!window.confirm(`Remove ${member.userEmail} from the staff?`)) e.preventDefault();
          }}
        >
          <button type="submit" className="py-2 text-xs text-red-700 hover:underline" disabled={removeForm.busy}>
            Remove
          </button>
        </ActionForm>
      </div>
    </li>
  );
}
