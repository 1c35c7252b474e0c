import Box from "@mui/material/Box";
import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Typography from "@mui/material/Typography";
import type { Contact } from "@vigil/contract";
import { type ReactNode, type Ref, useId } from "react";

export type ContactPickerProps = {
  /** The group's name ("Report recipients"), read out with each box. */
  legend: string;
  help?: ReactNode;
  contacts: readonly Contact[];
  /** The picked contacts' ids, in the order they were picked. */
  value: readonly string[];
  onChange: (contactIds: string[]) => void;
  onBlur?: () => void;
  /** The message under the group (from the schema or the server), in place of the help. */
  error?: string;
  /** Focus goes here when the group has a message (react-hook-form's field ref). */
  inputRef?: Ref<HTMLInputElement>;
  disabled?: boolean;
};

function contactDetail(contact: Contact): string {
  return [contact.role, contact.email].filter(Boolean).join(" · ");
}

/**
 * Several of a client's contacts picked with one checkbox each, in a labelled group: whom a protocol sends reports
 * to, whom a report is sent again. A contact without an e-mail address says so (no link can reach them), and an id
 * picked earlier whose contact is gone stays as "A removed contact", so it can be taken out.
 */
export function ContactPicker({
  legend,
  help,
  contacts,
  value,
  onChange,
  onBlur,
  error,
  inputRef,
  disabled,
}: ContactPickerProps) {
  const id = useId();
  const known = new Set(contacts.map((contact) => contact._id));
  const removed = value.filter((contactId) => !known.has(contactId));
  const toggle = (contactId: string, checked: boolean) =>
    onChange(checked ? [...value, contactId] : value.filter((picked) => picked !== contactId));
  const message = error ?? help;
  const describedBy = message ? `${id}-message` : undefined;
  const box = (contactId: string, label: ReactNode, index: number) => (
    <FormControlLabel
      key={contactId}
      sx={{ alignItems: "flex-start", my: 0.25 }}
      label={label}
      control={
        <Checkbox
          sx={{ pt: 0.5 }}
          checked={value.includes(contactId)}
          onChange={(event) => toggle(contactId, event.target.checked)}
          onBlur={onBlur}
          slotProps={{ input: { ref: index === 0 ? inputRef : undefined } as React.ComponentProps<"input"> }}
        />
      }
    />
  );
  return (
    <FormControl component="fieldset" error={Boolean(error)} disabled={disabled} aria-describedby={describedBy}>
      <FormLabel component="legend" sx={{ mb: 0.5 }}>
        {legend}
      </FormLabel>
      {contacts.length === 0 && removed.length === 0 ? (
        <Typography color="text.secondary" variant="body2">
          The client has no contacts yet.
        </Typography>
      ) : (
        <FormGroup>
          {contacts.map((contact, index) =>
            box(
              contact._id,
              <Box sx={{ py: 0.5 }}>
                <Typography component="span">{contact.name}</Typography>
                <Typography variant="body2" color="text.secondary" component="span" sx={{ display: "block" }}>
                  {contactDetail(contact)}
                </Typography>
                {contact.email ? null : (
                  <Typography variant="body2" color="warning.dark" component="span" sx={{ display: "block" }}>
                    No e-mail address: no link can reach them
                  </Typography>
                )}
              </Box>,
              index,
            ),
          )}
          {removed.map((contactId, index) =>
            box(
              contactId,
              <Box sx={{ py: 0.5 }}>
                <Typography component="span">A removed contact</Typography>
                <Typography variant="body2" color="text.secondary" component="span" sx={{ display: "block" }}>
                  No longer among the client's contacts
                </Typography>
              </Box>,
              contacts.length + index,
            ),
          )}
        </FormGroup>
      )}
      {message ? <FormHelperText id={describedBy}>{message}</FormHelperText> : null}
    </FormControl>
  );
}
