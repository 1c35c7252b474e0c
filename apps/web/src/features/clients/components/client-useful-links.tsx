import Add from "@mui/icons-material/Add";
import OpenInNew from "@mui/icons-material/OpenInNew";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type Client, pages, type UsefulLink, usefulLinkInputSchema, usefulLinkSchema } from "@vigil/contract";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { useAccess } from "../../../components/access/access-context";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { QueryError } from "../../../components/feedback/query-error";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { visuallyHidden } from "../../../components/visually-hidden";
import { useUsefulLinks } from "../api/list-useful-links";
import { useRemoveUsefulLink } from "../api/remove-useful-link";
import { useUpdateUsefulLink } from "../api/update-useful-link";
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

  let content: React.ReactNode;
  if (links.isPending) content = <LoadingScreen label="Loading useful links…" />;
  else if (links.isError)
    content = <QueryError what="The useful links" error={links.error} onRetry={() => void links.refetch()} />;
  else if (links.data.length === 0) content = <Typography color="text.secondary">No useful links yet.</Typography>;
  else
    content = (
      <Paper variant="outlined">
        <List aria-label={`Useful links of ${client.name}`}>
          {links.data.map((link) => {
            const href = safeWebUrl(link.url);
            return (
              <ListItem
                key={link._id}
                divider
                secondaryAction={
                  canWrite ? (
                    <Stack direction="row" spacing={1}>
                      <Button size="small" onClick={() => setEditing(link)} aria-label={`Edit ${link.title}`}>
                        Edit
                      </Button>
                      <Button
                        size="small"
                        color="error"
                        onClick={() => setRemoving(link)}
                        aria-label={`Remove ${link.title}`}
                      >
                        Remove
                      </Button>
                    </Stack>
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
    );

  return (
    <Stack spacing={2}>
      {canWrite ? (
        <div>
          <Button
            component={RouterLink}
            to={pages["useful-link-create"].href({ clientId: client.id })}
            variant="contained"
            startIcon={<Add />}
          >
            Add link
          </Button>
        </div>
      ) : null}
      {content}
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
    </Stack>
  );
}
