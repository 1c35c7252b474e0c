import type { CasePriority, StudyType } from "@vigil/contract";

/**
 * OBR-4 (universal service id) → Vigil's study type and video (docs/design/HL7.md, "Study types"). Hospitals code
 * EEG orders with CPT codes (95700–95726, the 2020 long-term EEG family), local codes or plain text, so the rules
 * read the code first and then words of the code and its text. An order none of them recognises is continuous ICU
 * EEG, the service most hospitals order from Vigil; the coordinator corrects it in intake.
 */
export type StudyTypeRule = {
  study: StudyType;
  hasVideo: boolean;
  /** CPT codes, exactly. */
  codes?: readonly string[];
  /** Upper-case words or fragments looked for in OBR-4.1 and OBR-4.2. */
  words?: readonly string[];
};

export const studyTypeRules: readonly StudyTypeRule[] = [
  { study: "emu-video", hasVideo: true, words: ["EMU", "EPILEPSY MONITORING"] },
  // 95705–95710: EEG without video, 2 to 26 hours and beyond: the ambulatory studies.
  { study: "ambulatory", hasVideo: false, codes: ["95705", "95706", "95707", "95708", "95709", "95710"] },
  { study: "ambulatory", hasVideo: true, words: ["AMBULATORY VIDEO", "AMB VEEG", "AMBULATORY VEEG"] },
  { study: "ambulatory", hasVideo: false, words: ["AMBULATORY", "AMB EEG", "AEEG"] },
  // 95711–95716: EEG with video, intermittent or continuous monitoring.
  { study: "icu-ceeg", hasVideo: true, codes: ["95711", "95712", "95713", "95714", "95715", "95716"] },
  { study: "icu-ceeg", hasVideo: true, words: ["VEEG", "VIDEO"] },
  { study: "icu-ceeg", hasVideo: false, words: ["CEEG", "CONTINUOUS", "ICU", "LTM", "LONG TERM", "LONG-TERM"] },
];

export const defaultStudyType: { study: StudyType; hasVideo: boolean } = { study: "icu-ceeg", hasVideo: false };

export function studyTypeOf(code: string, text: string): { study: StudyType; hasVideo: boolean } {
  return recognisedStudyType(code, text) ?? defaultStudyType;
}

/** The study type a rule recognises in OBR-4, or undefined when none does (an order change then keeps the case's). */
export function recognisedStudyType(code: string, text: string): { study: StudyType; hasVideo: boolean } | undefined {
  const upperCode = code.trim().toUpperCase();
  const words = `${upperCode} ${text.trim().toUpperCase()}`;
  for (const rule of studyTypeRules) {
    if (rule.codes?.includes(upperCode)) return { study: rule.study, hasVideo: rule.hasVideo };
    if (rule.words?.some((word) => words.includes(word))) return { study: rule.study, hasVideo: rule.hasVideo };
  }
  return undefined;
}

/** ORC-7.6 / OBR-27.6 / TQ1-9 priority: S (stat) and A (as soon as possible) are STAT in Vigil; the rest routine. */
export function priorityOf(code: string): CasePriority {
  const value = code.trim().toUpperCase();
  return value === "S" || value === "A" || value === "STAT" ? "stat" : "routine";
}
