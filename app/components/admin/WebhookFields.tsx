import { ALL_EVENTS, WEBHOOK_EVENT_NAMES, WEBHOOK_EVENTS } from "#domain/webhooks.ts";
import { useFieldState, useSubmittedValues } from "../ActionForm";
import { TextField } from "../forms";

/** An endpoint's values as the form shows them. */
export interface WebhookValues {
  url: string;
  description: string;
  events: string[];
}

export const EMPTY_WEBHOOK: WebhookValues = { url: "", description: "", events: [] };

/**
 * The fields of a webhook endpoint (docs/decisions/078), inside an ActionForm: its address, what it is for, and the
 * events it receives as one box each (or all of them, those added later too). The add form and the edit form.
 */
export function WebhookFields({ values, allowHttp }: { values: WebhookValues; allowHttp: boolean }) {
  const eventsError = useFieldState("events")?.error;
  // A refused post (without JavaScript the page comes back) keeps what was typed, not the record's values.
  const sent = useSubmittedValues();
  const text = (name: "url" | "description") => (sent ? String(sent[name] ?? "") : values[name]);
  const ticked = sent ? [sent.events ?? []].flat().map(String) : values.events;
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <TextField
          label="Address"
          name="url"
          type="url"
          defaultValue={text("url")}
          required
          maxLength={2000}
          spellCheck={false}
          placeholder="https://"
        />
        <p className="mt-1.5 text-xs text-mist">
          {allowHttp
            ? "An https:// address; http:// and addresses on this machine or network are allowed for local testing."
            : "An https:// address on the internet: addresses of private, loopback or link-local networks are refused."}
        </p>
      </div>
      <div className="sm:col-span-2">
        <TextField label="Description" name="description" defaultValue={text("description")} maxLength={500} />
      </div>
      <fieldset className="sm:col-span-2">
        <legend className="field-label">Events</legend>
        <div className="mt-2 grid gap-x-6 gap-y-2 sm:grid-cols-2">
          <label className="flex items-center gap-2 text-sm sm:col-span-2">
            <input type="checkbox" name="events" value={ALL_EVENTS} defaultChecked={ticked.includes(ALL_EVENTS)} />
            All events, those added later too
          </label>
          {WEBHOOK_EVENT_NAMES.map((event) => (
            <div key={event} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                id={`webhook-event-${event}`}
                name="events"
                value={event}
                defaultChecked={ticked.includes(event)}
                aria-describedby={`webhook-event-${event}-about`}
                className="mt-1"
              />
              <span>
                <label htmlFor={`webhook-event-${event}`} className="font-mono text-xs">
                  {event}
                </label>
                <span id={`webhook-event-${event}-about`} className="block text-xs text-mist">
                  {WEBHOOK_EVENTS[event]}
                </span>
              </span>
            </div>
          ))}
        </div>
        {eventsError ? <p className="field-error">{eventsError}</p> : null}
      </fieldset>
    </div>
  );
}
