// jsdom answers a form control's `labels` by asking every label in the document for its control, and a label with a
// `for` finds its control by walking the whole document: labels × nodes for each getByLabelText, accessible name and
// user-event pointer check, which made long forms the slowest tests on a loaded machine. The document keeps an index
// of ids, so the same answer is one lookup per label.

const LABELLED_ELEMENTS = [
  HTMLButtonElement,
  HTMLInputElement,
  HTMLMeterElement,
  HTMLOutputElement,
  HTMLProgressElement,
  HTMLSelectElement,
  HTMLTextAreaElement,
];

function labelsOf(element: HTMLElement, root: Document): HTMLLabelElement[] {
  const found: HTMLLabelElement[] = [];
  for (const label of root.getElementsByTagName("label")) {
    const forId = label.getAttribute("for");
    // Without `for` a label's control is its first labelable descendant: jsdom walks only the label's own subtree.
    const control = forId === null ? label.control : forId === "" ? null : root.getElementById(forId);
    if (control === element) found.push(label);
  }
  return found;
}

export function indexLabelLookups(): void {
  for (const kind of LABELLED_ELEMENTS) {
    const jsdomLabels = Object.getOwnPropertyDescriptor(kind.prototype, "labels")?.get;
    if (jsdomLabels === undefined) continue;
    Object.defineProperty(kind.prototype, "labels", {
      configurable: true,
      get(this: HTMLElement) {
        const root = this.getRootNode();
        // A hidden input has no labels (null), and outside a document jsdom's own walk is small.
        if (!(root instanceof Document) || (this instanceof HTMLInputElement && this.type === "hidden")) {
          return jsdomLabels.call(this);
        }
        return labelsOf(this, root);
      },
    });
  }
}
