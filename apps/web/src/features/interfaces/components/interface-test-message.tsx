import Send from "@mui/icons-material/Send";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { Client } from "@vigil/contract";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { useSendInterfaceTestMessage } from "../api/send-interface-test-message";

/**
 * "Send a test message": sends the harmless message to the profile's destination and shows what came back, in
 * plain words and as the acknowledgement itself. A failure to reach the hospital is a result like any other.
 */
export function InterfaceTestMessage({ client, destination }: { client: Client; destination: string }) {
  const send = useSendInterfaceTestMessage();
  const result = send.data;
  const failure = apiErrorOf(send.error);
  return (
    <Box component="section" aria-labelledby="interface-test-message">
      <Typography id="interface-test-message" variant="h6" component="h2">
        Test the connection
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        Sends a network management query (NMQ^N01) to {destination}: it names no patient and no order, so nothing
        reaches a chart. The hospital's answer is shown here and kept in the message log.
      </Typography>
      <Stack direction="row" sx={{ alignItems: "center", gap: 2, mb: 2 }}>
        <Button
          variant="outlined"
          startIcon={send.isPending ? <CircularProgress size={16} aria-hidden="true" /> : <Send />}
          disabled={send.isPending}
          onClick={() => send.mutate(client.id)}
        >
          Send a test message
        </Button>
        {send.isPending ? (
          <Typography role="status" color="text.secondary">
            Sending, waiting up to 15 s for the hospital's answer…
          </Typography>
        ) : null}
      </Stack>
      {failure ? (
        <Alert severity="error" role="alert">
          The test message was not sent: {failure.message}
        </Alert>
      ) : null}
      {result && !send.isPending ? (
        <Alert severity={result.ok ? "success" : "error"} role="status">
          <AlertTitle>{result.ok ? "Accepted" : "Not accepted"}</AlertTitle>
          <Box component="p" sx={{ my: 0 }}>
            {result.summary}
          </Box>
          {result.ack ? (
            <Box
              component="pre"
              aria-label="The acknowledgement as received"
              sx={{ mt: 1, mb: 0, p: 1, bgcolor: "background.paper", overflowX: "auto", whiteSpace: "pre-wrap" }}
            >
              {result.ack}
            </Box>
          ) : null}
        </Alert>
      ) : null}
    </Box>
  );
}
