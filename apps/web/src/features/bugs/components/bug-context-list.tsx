import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import type { BugContext } from "@vigil/contract";
import type { ReactNode } from "react";
import { appVersionText, isWebAddress, screenText, viewportText } from "../bug-report-labels";

/** Terms and their values as a description list, two columns on wide screens. */
export type DescriptionItem = { term: string; value: ReactNode };

export function DescriptionList({ label, items }: { label?: string; items: readonly DescriptionItem[] }) {
  return (
    <Box
      component="dl"
      aria-label={label}
      sx={{
        display: "grid",
        gridTemplateColumns: { xs: "1fr", sm: "max-content 1fr" },
        columnGap: 2,
        rowGap: 0.5,
        m: 0,
        "& dt": { fontWeight: 600, color: "text.secondary" },
        "& dd": { m: 0, mb: { xs: 1, sm: 0 }, overflowWrap: "anywhere" },
      }}
    >
      {items.map(({ term, value }) => (
        <Box key={term} sx={{ display: "contents" }}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Box>
      ))}
    </Box>
  );
}

/** What the web app filed by itself: the page (a link when it is one), browser, screen, window and version. */
export function BugContextList({ context, label }: { context: BugContext; label?: string }) {
  return (
    <DescriptionList
      label={label}
      items={[
        {
          term: "Page",
          value: isWebAddress(context.pageUrl) ? (
            <Link href={context.pageUrl} target="_blank" rel="noopener noreferrer">
              {context.pageUrl}
            </Link>
          ) : (
            context.pageUrl
          ),
        },
        { term: "Browser", value: context.userAgent || "Not recorded" },
        { term: "Screen", value: screenText(context.screen) },
        { term: "Window", value: viewportText(context.viewport) },
        { term: "App version", value: appVersionText(context.appVersion) },
      ]}
    />
  );
}
