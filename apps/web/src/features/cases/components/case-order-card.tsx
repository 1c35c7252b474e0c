import Alert from "@mui/material/Alert";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { CaseOrder } from "@vigil/contract";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { DetailList, DetailRow } from "../../../components/layouts/detail-list";

/**
 * The hospital's order a case was opened from (HL7 ORM/OML, docs/design/HL7.md): the numbers the hospital's staff
 * quote on the phone (their order number, the visit) beside Vigil's own, and what the hospital said since.
 */
export function CaseOrderCard({ order, timeZone }: { order: CaseOrder; timeZone: string }) {
  return (
    <Paper component="section" variant="outlined" sx={{ px: { xs: 2, sm: 3 }, py: 1 }} aria-label="Hospital order">
      <Typography variant="h6" component="h2" sx={{ pt: 1 }}>
        Hospital order
      </Typography>
      {order.dischargedAt ? (
        <Alert severity="warning" sx={{ my: 1 }}>
          The hospital discharged the patient on <ZonedDateTime value={order.dischargedAt} timeZone={timeZone} />. End
          monitoring?
        </Alert>
      ) : null}
      {order.cancelledAt ? (
        <Alert severity="info" sx={{ my: 1 }}>
          The hospital cancelled the order on <ZonedDateTime value={order.cancelledAt} timeZone={timeZone} />
          {order.cancelReason ? `: ${order.cancelReason}` : "."}
        </Alert>
      ) : null}
      <DetailList>
        <DetailRow label="Order number">{order.placerOrderNumber}</DetailRow>
        <DetailRow label="Visit number">{order.visitNumber}</DetailRow>
        <DetailRow label="Vigil's order number">{order.fillerOrderNumber}</DetailRow>
        <DetailRow label="Ordering provider">{order.orderingProvider}</DetailRow>
        <DetailRow label="Reason">{order.reason}</DetailRow>
        <DetailRow label="Location">{order.location}</DetailRow>
        <DetailRow label="MRN assigned by">{order.mrnAssigningAuthority}</DetailRow>
        <DetailRow label="Received">
          <ZonedDateTime value={order.receivedAt} timeZone={timeZone} /> by HL7 interface
        </DetailRow>
      </DetailList>
    </Paper>
  );
}
