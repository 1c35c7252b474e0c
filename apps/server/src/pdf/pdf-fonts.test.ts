import { describe, expect, it } from "vitest";
import { fontRunsOf, uncoveredCharacter } from "./pdf-fonts.js";

describe("choosing a font for each character", () => {
  it("keeps Latin, Greek and Cyrillic in Noto Sans and gives Han, kana and Hangul their CJK faces", () => {
    expect(fontRunsOf("Żółć Ελένη Дмитрий", "regular")).toEqual([
      { font: "NotoSans-regular", text: "Żółć Ελένη Дмитрий" },
    ]);
    expect(fontRunsOf("王 小明, 佐藤ひなた / 김민준", "bold")).toEqual([
      { font: "NotoSansSC-bold", text: "王 小明" },
      { font: "NotoSans-bold", text: ", " },
      { font: "NotoSansSC-bold", text: "佐藤ひなた " },
      { font: "NotoSans-bold", text: "/ " },
      { font: "NotoSansKR-bold", text: "김민준" },
    ]);
  });

  it("prints the signs Noto Sans lacks (≈ ≥ →) from the CJK face rather than dropping them", () => {
    expect(fontRunsOf("PDR ≈ 7–8 Hz", "regular")).toEqual([
      { font: "NotoSans-regular", text: "PDR " },
      { font: "NotoSansSC-regular", text: "≈ " },
      { font: "NotoSans-regular", text: "7–8 Hz" },
    ]);
  });

  it("replaces a character no font has with a visible U+FFFD, and composes accents first (NFC)", () => {
    expect(fontRunsOf("שלום Sara", "regular")).toEqual([
      { font: "NotoSans-regular", text: `${uncoveredCharacter.repeat(4)} Sara` },
    ]);
    expect(fontRunsOf("Thi\u0323", "regular")).toEqual([{ font: "NotoSans-regular", text: "Thị" }]);
  });

  it("gives an empty text one empty run, so the line still advances", () => {
    expect(fontRunsOf("", "regular")).toEqual([{ font: "NotoSans-regular", text: "" }]);
  });
});
