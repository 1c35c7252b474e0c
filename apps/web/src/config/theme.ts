import { createTheme } from "@mui/material/styles";

/** Spec §3 theme colours; the Authenticator theme (authenticator-theme.ts) reads the same values. */
export const brandColors = {
  primary: "#104080",
  secondary: "#6A1B9A",
  accent: "#4CAF50",
  error: "#C62828",
  info: "#1976D2",
  success: "#388E3C",
  warning: "#FFA000",
} as const;

export const fontFamily = [
  "system-ui",
  "-apple-system",
  '"Segoe UI"',
  "Roboto",
  '"Helvetica Neue"',
  "Arial",
  "sans-serif",
].join(",");

declare module "@mui/material/styles" {
  interface Palette {
    accent: Palette["primary"];
  }
  interface PaletteOptions {
    accent?: PaletteOptions["primary"];
  }
}

declare module "@mui/material/Button" {
  interface ButtonPropsColorOverrides {
    accent: true;
  }
}

declare module "@mui/material/Chip" {
  interface ChipPropsColorOverrides {
    accent: true;
  }
}

const base = createTheme();

export const theme = createTheme({
  palette: {
    mode: "light",
    primary: { main: brandColors.primary },
    secondary: { main: brandColors.secondary },
    accent: base.palette.augmentColor({ color: { main: brandColors.accent }, name: "accent" }),
    error: { main: brandColors.error },
    info: { main: brandColors.info },
    success: { main: brandColors.success },
    warning: { main: brandColors.warning },
  },
  typography: { fontFamily },
  components: {
    // A visible focus ring on every interactive element, not only MUI's ripple (spec: keyboard users).
    MuiButtonBase: {
      styleOverrides: {
        root: {
          "&.Mui-focusVisible": { outline: `3px solid ${brandColors.info}`, outlineOffset: 2 },
        },
      },
    },
    MuiLink: {
      styleOverrides: {
        root: { "&:focus-visible": { outline: `3px solid ${brandColors.info}`, outlineOffset: 2 } },
      },
    },
  },
});
