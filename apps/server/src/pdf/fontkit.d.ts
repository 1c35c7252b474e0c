// fontkit ships no types (pdfkit uses it inside); this is the part the PDF font module asks of it.
declare module "fontkit" {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export interface FontCollection {
    fonts: Font[];
  }
  export function create(buffer: Buffer, postscriptName?: string): Font | FontCollection;
}
