import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { type Client, type Contact, contactInputSchema, contactSchema, pages } from "@vigil/contract";
import { useState } from "react";
import { useClientContacts } from "../../../api/list-client-contacts";
import { useAccess } from "../../../components/access/access-context";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { useRemoveContact } from "../api/remove-contact";
import { useUpdateContact } from "../api/update-contact";
import { ClientListTab, EditRemoveButtons } from "./client-list-tab";
import {
  ContactFormFields,
  type ContactFormValues,
  contactFieldLabels,
  contactFormValues,
  toContactInput,
} from "./contact-form-fields";
import { VersionedEditDialog } from "./versioned-edit-dialog";

const yesNo = (value: boolean) => (value ? "Yes" : "No");

function contactConflictRows(theirs: Contact, mine: ContactFormValues) {
  const their = contactFormValues(theirs);
  return (Object.keys(contactFieldLabels) as (keyof ContactFormValues)[]).map((key) => {
    const left = their[key];
    const right = mine[key];
    return {
      key,
      label: contactFieldLabels[key],
      left: typeof left === "boolean" ? yesNo(left) : left,
      right: typeof right === "boolean" ? yesNo(right) : right,
    };
  });
}

function EditContactDialog({ client, contact, onClose }: { client: Client; contact: Contact; onClose: () => void }) {
  const update = useUpdateContact();
  return (
    <VersionedEditDialog
      title={`Edit contact ${contact.name}`}
      noun="contact"
      record={contact}
      schema={contactInputSchema}
      recordSchema={contactSchema}
      valuesOf={contactFormValues}
      toInput={toContactInput}
      renderFields={(form) => <ContactFormFields form={form} />}
      conflictRows={contactConflictRows}
      save={(version, input) => update.mutateAsync({ clientId: client.id, contactId: contact._id, version, input })}
      onClose={onClose}
    />
  );
}

function RemoveContactDialog({ client, contact, onClose }: { client: Client; contact: Contact; onClose: () => void }) {
  const remove = useRemoveContact();
  const failure = apiErrorOf(remove.error);
  return (
    <ConfirmDialog
      open
      title={`Remove ${contact.name}?`}
      confirmLabel="Remove contact"
      destructive
      pending={remove.isPending}
      error={failure ? `The contact was not removed: ${failure.message}` : null}
      onConfirm={() => remove.mutate({ clientId: client.id, contactId: contact._id }, { onSuccess: onClose })}
      onClose={onClose}
    >
      {contact.name} will no longer be listed for {client.name}
      {contact.notifyOnCritical ? " and will not be notified of critical findings" : ""}. The removal is recorded in the
      audit log.
    </ConfirmDialog>
  );
}

/** The contacts tab: primary first; edit in a dialog (If-Match), remove after confirming. */
export function ClientContacts({ client }: { client: Client }) {
  const { can } = useAccess();
  const canWrite = can("clients:write") && !client.archivedAt;
  const contacts = useClientContacts(client.id);
  const [editing, setEditing] = useState<Contact | null>(null);
  const [removing, setRemoving] = useState<Contact | null>(null);

  return (
    <ClientListTab
      query={contacts}
      noun="contacts"
      add={canWrite ? { label: "Add contact", to: pages["contact-create"].href({ clientId: client.id }) } : null}
      list={(items) => (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={`Contacts of ${client.name}`}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ fontWeight: 600 }}>Name</TableCell>
                <TableCell sx={{ fontWeight: 600 }}>Role</TableCell>
                <TableCell sx={{ fontWeight: 600 }}>Email and phone</TableCell>
                <TableCell sx={{ fontWeight: 600 }}>Critical findings</TableCell>
                <TableCell sx={{ fontWeight: 600 }}>Updated</TableCell>
                {canWrite ? <TableCell sx={{ fontWeight: 600 }}>Actions</TableCell> : null}
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((contact) => (
                <TableRow key={contact._id}>
                  <TableCell component="th" scope="row">
                    {contact.name}
                    {contact.isPrimary ? <Chip label="Primary" size="small" color="primary" sx={{ ml: 1 }} /> : null}
                    {contact.notes ? (
                      <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: "pre-wrap" }}>
                        {contact.notes}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell>{contact.role}</TableCell>
                  <TableCell>
                    {contact.email ? (
                      <Link href={`mailto:${contact.email}`} sx={{ display: "block", overflowWrap: "anywhere" }}>
                        {contact.email}
                      </Link>
                    ) : null}
                    {contact.phone ? (
                      <Link href={`tel:${contact.phone}`} sx={{ display: "block", whiteSpace: "nowrap" }}>
                        {contact.phone}
                      </Link>
                    ) : null}
                  </TableCell>
                  <TableCell>{contact.notifyOnCritical ? "Notified" : "Not notified"}</TableCell>
                  <TableCell>
                    <ZonedDateTime value={contact.updatedAt} timeZone={client.timezone} />
                  </TableCell>
                  {canWrite ? (
                    <TableCell sx={{ whiteSpace: "nowrap" }}>
                      <EditRemoveButtons
                        name={contact.name}
                        onEdit={() => setEditing(contact)}
                        onRemove={() => setRemoving(contact)}
                      />
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    >
      {editing ? <EditContactDialog client={client} contact={editing} onClose={() => setEditing(null)} /> : null}
      {removing ? <RemoveContactDialog client={client} contact={removing} onClose={() => setRemoving(null)} /> : null}
    </ClientListTab>
  );
}
