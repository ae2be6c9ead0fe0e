import { ActionForm, FormConfirmation, useActionForm } from "../ActionForm";
import { Honeypot, TextAreaField, TextField } from "../forms";

/**
 * 'Send Us Message': posts to the /contact action from every page that shows it and keeps the visitor here; what was
 * typed stays on an error; once sent, a confirmation takes the form's place (beside the spec's toast). On the plain
 * public pages (app/lib/hydration.ts) the page's small script posts it in place and shows the server's answer in the
 * form (app/lib/plain-page-script.ts); without scripts the browser lands on /contact, opened at the form's answer. The rules (domain/public-forms.ts) are
 * checked by the server only, so that no page of the public site loads schema code.
 */
export function ContactForm() {
  // The fragment: after a plain post the answer page opens at this form (its answer is the form's first line), not
  // 1,200 px above it on a phone.
  const form = useActionForm({ id: "contact", action: "/contact#form-contact", confirm: true });
  const card = "rounded-3xl bg-white p-6 shadow-sm ring-1 ring-linen sm:p-10";
  return (
    <section id="contact-sec" className="bg-sand py-20 sm:py-24">
      <div className="container-page grid gap-12 lg:grid-cols-[0.9fr_1.1fr]">
        <div>
          <p className="eyebrow">Contact</p>
          <h2 className="section-title">Send Us Message</h2>
          <p className="section-lead">
            Tell us about your space or your search goals. A designer or SEO lead reads every message and answers within
            one working day.
          </p>
        </div>
        {form.confirmed ? (
          <FormConfirmation
            handle={form}
            title="Thank you, your message is on its way"
            againText="Send another message"
            className={`self-start ${card}`}
          >
            A designer or SEO lead reads every message and replies to the email address you gave within one working day.
          </FormConfirmation>
        ) : (
          <ActionForm handle={form} inPlace className={`relative grid gap-5 sm:grid-cols-2 ${card}`}>
            <Honeypot />
            <input type="hidden" name="messageStatus" value="UnRead" />
            <TextField label="Full Name" name="name" autoComplete="name" required />
            <TextField label="Phone Number" name="number" type="tel" autoComplete="tel" />
            <TextField label="Email" name="email" type="email" autoComplete="email" required />
            <TextField label="Subject" name="subject" required />
            <TextAreaField label="Message" name="message" rows={5} required className="sm:col-span-2" />
            <div className="sm:col-span-2">
              <button type="submit" className="btn-primary w-full sm:w-auto" disabled={form.busy}>
                {form.busy ? "Sending…" : "Send Message"}
              </button>
            </div>
          </ActionForm>
        )}
      </div>
    </section>
  );
}
