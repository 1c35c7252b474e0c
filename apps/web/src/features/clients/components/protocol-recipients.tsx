import Typography from "@mui/material/Typography";
import type { Contact } from "@vigil/contract";
import { useMemo } from "react";
import { useController } from "react-hook-form";
import { useClientContacts } from "../../../api/list-client-contacts";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { QueryError } from "../../../components/feedback/query-error";
import { ContactPicker } from "../../../components/forms/contact-picker";
import { labelledMessage } from "../../../components/forms/field-messages";
import { keepServerMessageOnBlur } from "../../../components/forms/use-contract-form";
import type { ContactNames } from "../protocol-model";
import type { ProtocolForm } from "./transfer-fields-editor";

const legend = "Report recipients";

/** The client's contacts by id → name: a protocol names its report recipients by id. */
export function useContactNames(clientId: string, { enabled = true } = {}): ContactNames | undefined {
  const contacts = useClientContacts(clientId, { enabled });
  return useMemo(
    () => (contacts.data ? new Map(contacts.data.map((contact) => [contact._id, contact.name])) : undefined),
    [contacts.data],
  );
}

/**
 * The new revision's report recipients: the client's contacts, each signed report and addendum e-mailed to those
 * picked as a one-time download link.
 */
export function ReportRecipientsField({ form, clientId }: { form: ProtocolForm; clientId: string }) {
  const contacts = useClientContacts(clientId);
  const { field, fieldState } = useController({ control: form.control, name: "reportRecipients.contactIds" });
  if (contacts.isPending) return <LoadingScreen label="Loading the client's contacts…" />;
  if (contacts.isError) {
    return <QueryError what="The client's contacts" error={contacts.error} onRetry={() => void contacts.refetch()} />;
  }
  const message = fieldState.error?.message;
  return (
    <ContactPicker
      legend={legend}
      help="Each signed report and addendum is e-mailed to them as a link that downloads it once; the PDF is never attached."
      contacts={contacts.data}
      value={field.value}
      onChange={field.onChange}
      onBlur={keepServerMessageOnBlur(field.onBlur, fieldState)}
      inputRef={field.ref}
      error={message ? labelledMessage(legend, message) : undefined}
    />
  );
}

function recipientText(contactId: string, contacts: readonly Contact[] | undefined): string {
  const contact = contacts?.find((candidate) => candidate._id === contactId);
  if (!contact) return "A removed contact";
  return contact.email
    ? `${contact.name} (${contact.email})`
    : `${contact.name}: no e-mail address, no link can reach them`;
}

/** Whom a revision sends the reports to, one line each, read from the client's contacts. */
export function ReportRecipientsList({ clientId, contactIds }: { clientId: string; contactIds: readonly string[] }) {
  const contacts = useClientContacts(clientId, { enabled: contactIds.length > 0 });
  if (contactIds.length === 0) return <>Nobody: signed reports are not e-mailed</>;
  if (contacts.isPending) return <>Loading…</>;
  return (
    <>
      {contactIds.map((contactId) => (
        <Typography key={contactId} component="span" sx={{ display: "block" }}>
          {recipientText(contactId, contacts.data)}
        </Typography>
      ))}
    </>
  );
}
