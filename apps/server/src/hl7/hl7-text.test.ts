import { describe, expect, it } from "vitest";
import {
  charsetNamed,
  decodeHl7Bytes,
  encodeHl7Text,
  escapeHl7,
  firstInvalidUtf8,
  headerComponent,
  headerField,
  readHeader,
  unescapeHl7,
} from "./hl7-text.js";

describe("HL7 v2 text", () => {
  it("reads the MSH segment alone, by field number, with the sender's delimiters", () => {
    const header = readHeader("MSH|^~\\&|EPIC^1.2.3^ISO|HOSP|||20260301||ORM^O01^ORM_O01|77|P|2.5.1\rPID|1");
    expect(header && headerField(header, 1)).toBe("|");
    expect(header && headerField(header, 2)).toBe("^~\\&");
    expect(header && headerComponent(header, 3, 2)).toBe("1.2.3");
    expect(header && headerComponent(header, 9, 2)).toBe("O01");
    expect(header && headerField(header, 10)).toBe("77");
    expect(header && headerField(header, 18)).toBe("");
  });

  it("refuses delimiters that are letters, digits, spaces or repeated", () => {
    for (const bad of ["MSHA^~\\&A", "MSH|^^\\&|", "MSH| ~\\&|", "MSH|^~\\|", "PID|^~\\&|", "MSH"]) {
      expect(readHeader(bad), bad).toBeUndefined();
    }
    expect(readHeader("MSH|^~\\&#|A")?.delimiters.subcomponent).toBe("&");
  });

  it("knows UTF-8 (the default), ASCII and 8859/1 from MSH-18, and nothing else", () => {
    expect(["", "UNICODE UTF-8", "ascii", "8859/1"].map(charsetNamed)).toEqual(["utf-8", "utf-8", "ascii", "latin1"]);
    expect(charsetNamed("ISO IR87")).toBeUndefined();
  });

  it("decodes UTF-8 strictly and 8859/1 byte for byte", () => {
    const utf8 = Buffer.from("MSH|^~\\&|A\rPID|1||||Müller");
    expect(decodeHl7Bytes(utf8)).toMatchObject({ ok: true, text: "MSH|^~\\&|A\rPID|1||||Müller", charset: "utf-8" });
    const latin = Buffer.from("MSH|^~\\&||||||||||||||||8859/1\rPID|1||||M\xfcller", "latin1");
    expect(decodeHl7Bytes(latin)).toMatchObject({ ok: true, charset: "latin1" });
    const wrong = Buffer.from("MSH|^~\\&|A\rPID|1||||M\xfcller", "latin1");
    expect(decodeHl7Bytes(wrong)).toMatchObject({ ok: false, reason: "invalid-bytes", offset: 21 });
  });

  it("finds the first byte that is not UTF-8: a stray continuation, a truncated or overlong sequence", () => {
    expect(firstInvalidUtf8(Buffer.from([0x41, 0x80]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0x41, 0xe2, 0x82]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xc0, 0xaf]))).toBe(0);
    expect(firstInvalidUtf8(Buffer.from("ok ✓ 🙂"))).toBe(Buffer.from("ok ✓ 🙂").length);
  });

  it("escapes delimiters and line breaks in free text, and reads them back", () => {
    const text = "a|b^c&d~e\\f\r\ng";
    const escaped = escapeHl7(text);
    expect(escaped).toBe("a\\F\\b\\S\\c\\T\\d\\R\\e\\E\\f\\X0D\\\\X0A\\g");
    expect(unescapeHl7(escaped)).toBe(text);
    expect(unescapeHl7("line\\.br\\two \\H\\bold\\N\\ \\Z99\\ 50\\")).toBe("line\ntwo bold \\Z99\\ 50\\");
  });

  it("writes 8859/1 with a question mark for what it cannot carry", () => {
    expect(encodeHl7Text("Müller 李", "latin1")).toEqual(Buffer.from("M\xfcller ?", "latin1"));
    expect(encodeHl7Text("李", "utf-8")).toEqual(Buffer.from("李"));
  });
});
