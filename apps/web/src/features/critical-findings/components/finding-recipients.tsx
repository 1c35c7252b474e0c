import Chip from "@mui/material/Chip";
import { alpha, type Theme } from "@mui/material/styles";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { FindingDelivery, FindingRecipient } from "@vigil/contract";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import {
  channelLabels,
  deliveryPurposeLabels,
  deliveryStatusColor,
  deliveryStatusText,
  levelLabel,
  recipientKindLabels,
} from "./finding-labels";

/** A failed message stands out by a tint as well as by its chip's words. */
function failedTint(delivery: FindingDelivery | undefined) {
  return (theme: Theme) => ({
    backgroundColor: delivery?.status === "failed" ? alpha(theme.palette.error.main, 0.08) : undefined,
  });
}

function DeliveryCells({ delivery, timeZone }: { delivery: FindingDelivery | undefined; timeZone: string }) {
  if (!delivery) {
    return (
      <TableCell colSpan={3}>
        <Typography variant="body2" color="error">
          No email address or phone number to reach them
        </Typography>
      </TableCell>
    );
  }
  return (
    <>
      <TableCell>
        {channelLabels[delivery.channel]}
        {delivery.purpose === "cancellation" ? ` (${deliveryPurposeLabels.cancellation.toLowerCase()})` : ""}
        <Typography variant="caption" color="text.secondary" component="div">
          {delivery.destination}
        </Typography>
      </TableCell>
      <TableCell>
        <Chip
          size="small"
          variant={delivery.status === "failed" ? "filled" : "outlined"}
          color={deliveryStatusColor(delivery)}
          label={deliveryStatusText(delivery)}
        />
        {delivery.sentAt ? (
          <Typography variant="caption" color="text.secondary" component="div">
            <ZonedDateTime value={delivery.sentAt} timeZone={timeZone} />
          </Typography>
        ) : delivery.status === "pending" && delivery.nextAttemptAt && delivery.lastError ? (
          <Typography variant="caption" color="text.secondary" component="div">
            next try <ZonedDateTime value={delivery.nextAttemptAt} timeZone={timeZone} />
          </Typography>
        ) : null}
      </TableCell>
      <TableCell>
        {delivery.lastError ? (
          <Typography
            variant="body2"
            color={
              delivery.status === "failed"
                ? "error"
                : delivery.status === "not-needed"
                  ? "text.secondary"
                  : "text.primary"
            }
          >
            {delivery.lastError}
            {delivery.attempts > 1 ? ` (${delivery.attempts} attempts)` : ""}
          </Typography>
        ) : (
          "—"
        )}
      </TableCell>
    </>
  );
}

/**
 * Who was told, at which level, over which channel, and how each message is doing: one row per message (a
 * recipient with an email and a phone has two); a failed one is tinted and says why.
 */
export function FindingRecipients({
  label,
  recipients,
  timeZone,
}: {
  label: string;
  recipients: readonly FindingRecipient[];
  timeZone: string;
}) {
  const ordered = [...recipients].sort((a, b) => a.level - b.level || a.notifiedAt.localeCompare(b.notifiedAt));
  if (ordered.length === 0) {
    return (
      <Typography color="text.secondary" variant="body2">
        Nobody has been told yet.
      </Typography>
    );
  }
  return (
    <ScrollRegion label={label}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {["When told", "Recipient", "Channel", "Status", "Last error"].map((header) => (
              <TableCell key={header} sx={{ fontWeight: 600 }}>
                {header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {ordered.flatMap((recipient) => {
            const deliveries: (FindingDelivery | undefined)[] =
              recipient.deliveries.length > 0 ? recipient.deliveries : [undefined];
            return deliveries.map((delivery, index) => (
              <TableRow
                key={`${recipient.id}:${delivery?.id ?? "none"}`}
                data-status={delivery?.status ?? "unreachable"}
                sx={failedTint(delivery)}
              >
                <TableCell>
                  {levelLabel(recipient.level)}
                  {index === 0 ? (
                    <Typography variant="caption" color="text.secondary" component="div">
                      <ZonedDateTime value={recipient.notifiedAt} timeZone={timeZone} />
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell>
                  {recipient.name}
                  <Typography variant="caption" color="text.secondary" component="div">
                    {recipientKindLabels[recipient.kind]}
                    {recipient.linkUsedAt ? (
                      <>
                        {" · link used "}
                        <ZonedDateTime value={recipient.linkUsedAt} timeZone={timeZone} />
                      </>
                    ) : null}
                  </Typography>
                </TableCell>
                <DeliveryCells delivery={delivery} timeZone={timeZone} />
              </TableRow>
            ));
          })}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}
