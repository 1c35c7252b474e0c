import type { Theme } from "@aws-amplify/ui-react";
import { brandColors, fontFamily } from "./theme";

/** Amplify UI tokens carrying Vigil's colours, so the sign-in screens look like the rest of the app. */
export const authenticatorTheme: Theme = {
  name: "vigil",
  tokens: {
    colors: {
      primary: {
        10: { value: "#e8eef6" },
        20: { value: "#c5d3e8" },
        40: { value: "#7f9cc7" },
        60: { value: "#3a66a3" },
        80: { value: brandColors.primary },
        90: { value: "#0c3264" },
        100: { value: "#08234a" },
      },
      secondary: {
        10: { value: "#f3e5f5" },
        20: { value: "#e1bee7" },
        40: { value: "#ba68c8" },
        60: { value: "#8e24aa" },
        80: { value: brandColors.secondary },
        90: { value: "#4a148c" },
        100: { value: "#38006b" },
      },
      font: {
        error: { value: brandColors.error },
        info: { value: brandColors.info },
        success: { value: brandColors.success },
        warning: { value: "#8a5700" },
      },
      border: {
        error: { value: brandColors.error },
        info: { value: brandColors.info },
        success: { value: brandColors.success },
        warning: { value: brandColors.warning },
      },
    },
    fonts: {
      default: { variable: { value: fontFamily }, static: { value: fontFamily } },
    },
  },
};
