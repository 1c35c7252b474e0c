import { getContrastRatio } from "@mui/material/styles";
import { describe, expect, it } from "vitest";
import { brandColors, textContrast, theme } from "./theme";

const white = "#ffffff";

describe("the theme's colours for text (WCAG 2.1 AA, 4.5:1)", () => {
  it("keeps the specification's palette", () => {
    expect(theme.palette.success.main.toUpperCase()).toBe(brandColors.success);
    expect(theme.palette.warning.main.toUpperCase()).toBe(brandColors.warning);
    expect(theme.palette.primary.main.toUpperCase()).toBe(brandColors.primary);
  });

  it.each([
    "primary",
    "secondary",
    "error",
    "info",
    "success",
    "warning",
  ] as const)("writes on a filled %s chip or button in a colour that contrasts enough", (color) => {
    const { main, contrastText } = theme.palette[color];
    expect(getContrastRatio(contrastText, main)).toBeGreaterThanOrEqual(textContrast);
  });

  it.each([
    "success",
    "warning",
    "error",
    "info",
    "primary",
  ] as const)("draws %s text on white in its dark shade with enough contrast", (color) => {
    expect(getContrastRatio(theme.palette[color].dark, white)).toBeGreaterThanOrEqual(textContrast);
  });

  it("writes outlined chips in their colour's dark shade", () => {
    const variants = theme.components?.MuiChip?.variants ?? [];
    for (const color of ["primary", "secondary", "error", "info", "success", "warning"] as const) {
      const variant = variants.find(
        (entry) => typeof entry.props === "object" && entry.props.variant === "outlined" && entry.props.color === color,
      );
      const style = typeof variant?.style === "function" ? variant.style({ theme } as never) : variant?.style;
      expect(style).toMatchObject({ color: theme.palette[color].dark });
    }
  });
});
