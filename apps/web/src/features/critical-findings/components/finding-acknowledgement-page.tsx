import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import {
  acknowledgeFindingLinkInputSchema,
  criticalFindingKindLabels,
  type FindingLinkView,
  findingLinkRefusalSchema,
  formatInstantInZone,
} from "@vigil/contract";
import { type ReactNode, useEffect, useRef } from "react";
import { useParams } from "react-router";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import {
  LinkRefusal,
  linkProblemOf,
  readerTimeZone,
  throttledLinkText,
} from "../../../components/feedback/one-time-link";
import { CheckboxField } from "../../../components/forms/checkbox-field";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { FormTextField } from "../../../components/forms/form-text-field";
import { applyServerError, useContractForm } from "../../../components/forms/use-contract-form";
import { PageHeading } from "../../../components/layouts/page-heading";
import { useAcknowledgeFindingLink } from "../api/acknowledge-finding-link";
import { useFindingLink } from "../api/look-up-finding-link";

const callTheTeam = "If the finding still needs to be acknowledged, call the EEG monitoring team.";

/**
 * Why this link cannot be used, in words a ward nurse reads at a glance (no codes, no button): not one of ours,
 * used already, expired, the finding closed, or too many tries.
 */
export function refusalText(error: unknown): { title: string; detail: string } | undefined {
  const problem = linkProblemOf(error);
  if (!problem) return undefined;
  if (problem.kind === "invalid") {
    return {
      title: "This link is not valid.",
      detail: `Check that the whole link from the message was opened. ${callTheTeam}`,
    };
  }
  if (problem.kind === "throttled") return throttledLinkText;
  const refusal = findingLinkRefusalSchema.safeParse(problem.details);
  const reason = refusal.success ? refusal.data.reason : "expired";
  const at = refusal.success && refusal.data.at ? ` on ${formatInstantInZone(refusal.data.at, readerTimeZone())}` : "";
  if (reason === "used") {
    return {
      title: "This link has already been used.",
      detail: `The finding was acknowledged with it${at}. Each link works once; nothing more is needed.`,
    };
  }
  if (reason === "closed") {
    // The server says who acknowledged it and when, or that it was withdrawn.
    return { title: "This finding no longer needs to be acknowledged.", detail: apiErrorOf(error)?.message ?? "" };
  }
  if (reason === "staff") {
    return {
      title: "This link is for information only.",
      detail:
        "Only the hospital acknowledges a critical finding. If the hospital's physician confirmed it by phone, " +
        "record that on the case in Vigil.",
    };
  }
  return { title: "This link has expired.", detail: callTheTeam };
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "180px 1fr" }, gap: 1, py: 0.5 }}>
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, whiteSpace: "pre-wrap" }}>
        {children}
      </Typography>
    </Box>
  );
}

/** "Neuro ICU, room 4, bed 12": the parts the hospital recorded, in the order a ward reads them. */
export function locationText(location: NonNullable<FindingLinkView["location"]>): string {
  return [location.unit, location.room ? `room ${location.room}` : null, location.bed ? `bed ${location.bed}` : null]
    .filter(Boolean)
    .join(", ");
}

function FindingFacts({ view }: { view: FindingLinkView }) {
  const zone = view.timeZone;
  return (
    <Box component="dl" sx={{ m: 0 }}>
      <Fact label="Case">{view.caseNumber}</Fact>
      <Fact label="Hospital">{view.clientName}</Fact>
      {view.location ? <Fact label="Location">{locationText(view.location)}</Fact> : null}
      {view.patient ? (
        <Fact label="Patient">
          {view.patient.name}
          {view.patient.mrn ? `, MRN ${view.patient.mrn}` : ""}
        </Fact>
      ) : null}
      <Fact label="Finding">{criticalFindingKindLabels[view.kind]}</Fact>
      <Fact label="EEG onset">
        <ZonedDateTime value={view.onsetAt} timeZone={zone} />
      </Fact>
      <Fact label="Raised">
        <ZonedDateTime value={view.raisedAt} timeZone={zone} />
      </Fact>
      {view.status === "open" ? (
        <Fact label="Acknowledge by">
          <ZonedDateTime value={view.dueAt} timeZone={zone} />
        </Fact>
      ) : null}
      <Fact label="Description">{view.description}</Fact>
    </Box>
  );
}

/** The monitoring team's number as a link a phone dials; nothing where the deployment set none. */
function CallTheTeam({ phone }: { phone: string | null }) {
  if (!phone) return null;
  return (
    <Typography>
      To speak to the EEG monitoring team, call{" "}
      <Link href={`tel:${phone.replace(/[^\d+]/g, "")}`} sx={{ fontWeight: 600 }}>
        {phone}
      </Link>
      .
    </Typography>
  );
}

/** After the acknowledgement: a plain confirmation with the time, focused so a screen reader says it at once. */
function Acknowledged({ view }: { view: FindingLinkView }) {
  const confirmation = useRef<HTMLDivElement>(null);
  useEffect(() => confirmation.current?.focus(), []);
  return (
    <Alert severity="success" role="status" ref={confirmation} tabIndex={-1}>
      <Typography sx={{ fontWeight: 600 }}>Thank you. The finding is acknowledged.</Typography>
      <Typography>
        Acknowledged by {view.acknowledgedBy ?? "you"}
        {view.acknowledgedAt ? (
          <>
            {" "}
            on <ZonedDateTime value={view.acknowledgedAt} timeZone={view.timeZone} />
          </>
        ) : null}
        . The EEG monitoring team can see it now; you can close this page.
      </Typography>
      {view.readBack ? (
        <Typography sx={{ mt: 1 }}>
          {view.readBackConfirmed ? "Your read-back was recorded" : "Your note was recorded"}: “{view.readBack}”
        </Typography>
      ) : null}
    </Alert>
  );
}

type AcknowledgeValues = { name: string; readBack: string; readBackConfirmed: boolean };

/** The name starts as the one the link was sent to (the page greets them by it); a colleague answering changes it. */
function AcknowledgeForm({ token, recipientName }: { token: string; recipientName: string }) {
  const acknowledge = useAcknowledgeFindingLink();
  const form = useContractForm({
    schema: acknowledgeFindingLinkInputSchema,
    defaultValues: {
      name: recipientName,
      readBack: "",
      readBackConfirmed: false,
    } satisfies AcknowledgeValues as AcknowledgeValues,
    toInput: (values: AcknowledgeValues) => ({ token, ...values }),
  });
  const submit = form.handleSubmit((input) =>
    acknowledge.mutate(input, {
      onSuccess: () => form.reset(form.getValues()),
      onError: (error) => applyServerError(form.setError, error),
    }),
  );
  if (acknowledge.data) return <Acknowledged view={acknowledge.data} />;
  const refusal = refusalText(acknowledge.error);
  if (refusal) return <LinkRefusal {...refusal} />;
  const failure = apiErrorOf(acknowledge.error);
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Acknowledge the finding">
      <Stack spacing={2} sx={{ maxWidth: 520 }}>
        <FormTextField
          control={form.control}
          name="name"
          label="Your name"
          help="As the EEG monitoring team should record it"
          required
          fullWidth
          autoComplete="name"
        />
        <FormTextField
          control={form.control}
          name="readBack"
          label="Read-back or note (optional)"
          help="What you understood, in your words: the finding and its onset time"
          multiline
          minRows={2}
          fullWidth
        />
        <CheckboxField
          control={form.control}
          name="readBackConfirmed"
          label="This is my read-back of the finding shown above"
          help="Leave it unticked for a note that is not a read-back"
        />
        {failure && failure.status !== 400 ? (
          <Alert severity="error">The acknowledgement was not sent: {failure.message}. Try again.</Alert>
        ) : null}
        <Box>
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={acknowledge.isPending}
            startIcon={
              acknowledge.isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined
            }
          >
            Acknowledge
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

function LinkContent({ token }: { token: string }) {
  const link = useFindingLink(token);
  if (link.isPending) return <LoadingScreen label="Opening the finding…" />;
  if (link.isError) {
    const refusal = refusalText(link.error);
    if (refusal) return <LinkRefusal {...refusal} />;
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void link.refetch()}>
            Try again
          </Button>
        }
      >
        The finding could not be opened. Check the connection and try again.
      </Alert>
    );
  }
  const view = link.data;
  return (
    <Stack spacing={2}>
      <Typography>
        For {view.recipientName}. This link works once, until{" "}
        <ZonedDateTime value={view.linkExpiresAt} timeZone={view.timeZone} />.
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <FindingFacts view={view} />
      </Paper>
      <CallTheTeam phone={view.teamPhone} />
      {view.status === "acknowledged" ? (
        <LinkRefusal
          title="This finding has already been acknowledged."
          detail={
            view.acknowledgedAt
              ? `${view.acknowledgedBy ?? "Someone"} acknowledged it on ${formatInstantInZone(view.acknowledgedAt, view.timeZone)}. Nothing more is needed.`
              : "Nothing more is needed."
          }
        />
      ) : view.status === "cancelled" ? (
        <LinkRefusal
          title="This finding no longer needs to be acknowledged."
          detail="The EEG monitoring team cancelled it. Nothing more is needed."
        />
      ) : (
        <AcknowledgeForm token={token} recipientName={view.recipientName} />
      )}
    </Stack>
  );
}

/**
 * `/acknowledge/:token` (base layout, no account): the link a critical finding's recipient got by email or text.
 * The token is read from the address's fragment, which browsers do not send, and travels only in request bodies.
 */
export function FindingAcknowledgementPage() {
  const { token = "" } = useParams();
  return (
    <Stack spacing={2} sx={{ maxWidth: 760 }}>
      <PageHeading>Critical EEG finding</PageHeading>
      {/* Another link opened in the same tab starts afresh. */}
      <LinkContent key={token} token={token} />
    </Stack>
  );
}
