import GlobalStyles from "@mui/material/GlobalStyles";
import { brandColors } from "../../config/theme";

/** App-wide rules MUI components do not cover: the skip link, focus on the main landmark, print. */
export function AppGlobalStyles() {
  return (
    <GlobalStyles
      styles={{
        ".vigil-skip-link": {
          position: "absolute",
          left: 8,
          top: -48,
          zIndex: 2000,
          padding: "8px 16px",
          background: "#fff",
          color: brandColors.primary,
          fontWeight: 600,
          borderRadius: 4,
          transition: "top 120ms",
        },
        ".vigil-skip-link:focus": { top: 8, outline: `3px solid ${brandColors.info}` },
        "main:focus": { outline: "none" },
        "main:focus-visible": { outline: `3px solid ${brandColors.info}`, outlineOffset: -3 },
        "@media print": {
          body: { background: "#fff" },
          ".vigil-no-print": { display: "none !important" },
        },
      }}
    />
  );
}
