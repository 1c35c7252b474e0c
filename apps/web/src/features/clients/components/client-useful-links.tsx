import OpenInNew from "@mui/icons-material/OpenInNew";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { type Client, pages, type UsefulLink, usefulLinkInputSchema, usefulLinkSchema } from "@vigil/contract";
import { useState } from "react";
import { useAccess } from "../../../components/access/access-context";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { visuallyHidden } from "../../../components/visually-hidden";
import { useUsefulLinks } from "../api/list-useful-links";
import { useRemoveUsefulLink } from "../api/remove-useful-link";
import { useUpdateUsefulLink } from "../api/update-useful-link";
import { ClientListTab, EditRemoveButtons } from "./client-list-tab";
import {
  toUsefulLinkInput,
  UsefulLinkFormFields,
  type UsefulLinkFormValues,
  usefulLinkFieldLabels,
  usefulLinkFormValues,
} from "./useful-link-form-fields";
import { VersionedEditDialog } from "./versioned-edit-dialog";

/** Only http(s) addresses become links; anything else (stored before validation existed) shows as text. */
export function safeWebUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

function linkConflictRows(theirs: UsefulLink, mine: UsefulLinkFormValues) {
  const their = usefulLinkFormValues(theirs);
  return (Object.keys(usefulLinkFieldLabels) as (keyof UsefulLinkFormValues)[]).map((key) => ({
    key,
    label: usefulLinkFieldLabels[key],
    left: their[key],
    right: mine[key],
  }));
}

/** The useful-links tab: external links open in a new tab without handing it this window (noopener). */
export function ClientUsefulLinks({ client }: { client: Client }) {
  const { can } = useAccess();
  const canWrite = can("clients:write") && !client.archivedAt;
  const links = useUsefulLinks(client.id);
  const update = useUpdateUsefulLink();
  const remove = useRemoveUsefulLink();
  const [editing, setEditing] = useState<UsefulLink | null>(null);
  const [removing, setRemoving] = useState<UsefulLink | null>(null);
  const removeFailure = apiErrorOf(remove.error);

  return (
    <ClientListTab
      query={links}
      noun="useful links"
      add={canWrite ? { label: "Add link", to: pages["useful-link-create"].href({ clientId: client.id }) } : null}
      list={(items) => (
        <Paper variant="outlined">
          <List aria-label={`Useful links of ${client.name}`}>
            {items.map((link) => {
              const href = safeWebUrl(link.url);
              return (
                <ListItem
                  key={link._id}
                  divider
                  secondaryAction={
                    canWrite ? (
                      <EditRemoveButtons
                        name={link.title}
                        onEdit={() => setEditing(link)}
                        onRemove={() => setRemoving(link)}
                      />
                    ) : undefined
                  }
                  sx={{ pr: canWrite ? 20 : 2 }}
                >
                  <Box>
                    {href ? (
                      <Link href={href} target="_blank" rel="noopener noreferrer" sx={{ fontWeight: 600 }}>
                        {link.title}
                        <OpenInNew fontSize="inherit" aria-hidden="true" sx={{ ml: 0.5, verticalAlign: "middle" }} />
                        <Box component="span" sx={visuallyHidden}>
                          (opens in a new tab)
                        </Box>
                      </Link>
                    ) : (
                      <Typography sx={{ fontWeight: 600 }}>{link.title}</Typography>
                    )}
                    <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
                      {link.url}
                    </Typography>
                    {link.description ? (
                      <Typography variant="body2" sx={{ whiteSpace: "pre-wrap" }}>
                        {link.description}
                      </Typography>
                    ) : null}
                  </Box>
                </ListItem>
              );
            })}
          </List>
        </Paper>
      )}
    >
      {editing ? (
        <VersionedEditDialog
          title={`Edit link ${editing.title}`}
          noun="link"
          record={editing}
          schema={usefulLinkInputSchema}
          recordSchema={usefulLinkSchema}
          valuesOf={usefulLinkFormValues}
          toInput={toUsefulLinkInput}
          renderFields={(form) => <UsefulLinkFormFields form={form} />}
          conflictRows={linkConflictRows}
          save={(version, input) => update.mutateAsync({ clientId: client.id, linkId: editing._id, version, input })}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog
          open
          title={`Remove ${removing.title}?`}
          confirmLabel="Remove link"
          destructive
          pending={remove.isPending}
          error={removeFailure ? `The link was not removed: ${removeFailure.message}` : null}
          onConfirm={() =>
            remove.mutate(
              { clientId: client.id, linkId: removing._id },
              {
                onSuccess: () => {
                  setRemoving(null);
                  remove.reset();
                },
              },
            )
          }
          onClose={() => {
            setRemoving(null);
            remove.reset();
          }}
        >
          The link to {removing.url} will no longer be listed for {client.name}. The removal is recorded in the audit
          log.
        </ConfirmDialog>
      ) : null}
    </ClientListTab>
  );
}
