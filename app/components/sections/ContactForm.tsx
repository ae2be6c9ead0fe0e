import { useFetcher } from "react-router";
import { errorFor, Honeypot, TextAreaField, TextField, useFormFeedback, type FormResult } from "../forms";

/**
 * 'Send Us Message': posts to the /contact action and keeps the visitor here; what was typed stays on an error.
 * `initial` carries a result rendered by the server when the browser had no JavaScript.
 */
export function ContactForm({ initial }: { initial?: FormResult }) {
  const fetcher = useFetcher<FormResult>();
  const formRef = useFormFeedback(fetcher);
  const result = fetcher.data ?? initial;
  const values = result && !result.ok ? result.values : {};
  const busy = fetcher.state !== "idle";
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
          {result?.ok && !fetcher.data ? (
            <p role="status" className="mt-6 rounded-xl bg-forest px-5 py-4 text-sm font-medium text-white">
              {result.message}
            </p>
          ) : null}
        </div>
        <fetcher.Form
          ref={formRef}
          method="post"
          action="/contact"
          noValidate
          className="relative grid gap-5 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-linen sm:grid-cols-2 sm:p-10"
        >
          <Honeypot />
          <input type="hidden" name="messageStatus" value="UnRead" />
          <TextField
            label="Full Name"
            name="name"
            autoComplete="name"
            required
            defaultValue={values.name}
            error={errorFor(result, "name")}
          />
          <TextField
            label="Phone Number"
            name="number"
            type="tel"
            autoComplete="tel"
            defaultValue={values.number}
            error={errorFor(result, "number")}
          />
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={values.email}
            error={errorFor(result, "email")}
          />
          <TextField
            label="Subject"
            name="subject"
            required
            defaultValue={values.subject}
            error={errorFor(result, "subject")}
          />
          <TextAreaField
            label="Message"
            name="message"
            rows={5}
            required
            className="sm:col-span-2"
            defaultValue={values.message}
            error={errorFor(result, "message")}
          />
          <div className="sm:col-span-2">
            <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
              {busy ? "Sending…" : "Send Message"}
            </button>
          </div>
        </fetcher.Form>
      </div>
    </section>
  );
}
