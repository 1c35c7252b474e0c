import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type ClipboardEvent, useState } from "react";

/** Four characters a group: how authenticator apps and password managers show such keys, easy to read out and type. */
export function groupsOfKey(secret: string): string[] {
  return secret.match(/.{1,4}/g) ?? [];
}

/**
 * The key of an authenticator app being set up, for typing it in instead of scanning the QR code (the account page
 * and the MFA-setup step of the sign-in). Shown in groups of four, spaced by layout rather than by characters, so
 * that copying it (a selection or the button) gives the key as the app expects it: without spaces.
 */
export function AuthenticatorKey({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  // A selection across the groups may pick up line breaks where they wrap: what is copied is the key alone.
  const copySelection = (event: ClipboardEvent) => {
    const selected = window.getSelection()?.toString() ?? "";
    event.clipboardData.setData("text/plain", selected.replace(/\s+/g, ""));
    event.preventDefault();
  };
  const copy = () => {
    void navigator.clipboard?.writeText(secret).then(() => setCopied(true));
  };
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        Key
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
        <Box
          component="code"
          aria-label="Key for the authenticator app"
          onCopy={copySelection}
          sx={{ fontFamily: "monospace", fontSize: "1.05rem", wordBreak: "break-word" }}
        >
          {groupsOfKey(secret).map((group, index) => (
            <Box
              component="span"
              // The groups are positions in one fixed string: the index is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={index}
              sx={{ display: "inline-block", mr: "0.6em" }}
            >
              {group}
            </Box>
          ))}
        </Box>
        <Button size="small" variant="outlined" onClick={copy}>
          {copied ? "Key copied" : "Copy key"}
        </Button>
      </Stack>
    </Box>
  );
}
