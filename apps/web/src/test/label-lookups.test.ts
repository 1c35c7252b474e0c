import { afterEach, describe, expect, it } from "vitest";

// The setup file indexes label lookups; these are the answers the HTML standard gives, which jsdom's walk gave too.
describe("label lookups in the test document", () => {
  afterEach(() => {
    document.body.innerHTML = "";
  });

  it("finds labels by their for attribute and by nesting, in document order", () => {
    document.body.innerHTML = `
      <label id="a" for="name">Name</label>
      <label id="b">Name again <input id="name" /></label>
      <label id="c" for="name">And once more</label>`;
    const input = document.getElementById("name") as HTMLInputElement;
    expect(Array.from(input.labels ?? [], (label) => label.id)).toEqual(["a", "b", "c"]);
  });

  it("gives a nested label to its first labelable descendant only", () => {
    document.body.innerHTML = `<label id="l"><select id="first"></select><textarea id="second"></textarea></label>`;
    expect((document.getElementById("first") as HTMLSelectElement).labels).toHaveLength(1);
    expect((document.getElementById("second") as HTMLTextAreaElement).labels).toHaveLength(0);
  });

  it("ignores an empty for, and a for naming another element", () => {
    document.body.innerHTML = `<label for="">Empty <input id="x" /></label><label for="y">Other</label><input id="y" />`;
    expect((document.getElementById("x") as HTMLInputElement).labels).toHaveLength(0);
    expect((document.getElementById("y") as HTMLInputElement).labels).toHaveLength(1);
  });

  it("gives a hidden input no labels, and finds labels outside the document by jsdom's own walk", () => {
    document.body.innerHTML = `<label for="h">Hidden</label><input id="h" type="hidden" />`;
    expect((document.getElementById("h") as HTMLInputElement).labels).toBeNull();
    const detached = document.createElement("label");
    const button = document.createElement("button");
    detached.append(button);
    expect(Array.from(button.labels)).toEqual([detached]);
  });

  it("gives a label pointing at an element that cannot be labelled no control", () => {
    document.body.innerHTML = `<label id="d" for="box">Box</label><div id="box"></div><input id="i" />`;
    expect((document.getElementById("d") as HTMLLabelElement).control).toBeNull();
    expect((document.getElementById("i") as HTMLInputElement).labels).toHaveLength(0);
  });
});
