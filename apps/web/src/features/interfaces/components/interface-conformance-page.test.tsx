import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { fhirConformance, fhirRoutes, hl7Conformance } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { renderPageScreens } from "../../../test/render-page-screens";
import { fhirResourcesOf } from "../conformance-model";
import { InterfaceConformancePage } from "./interface-conformance-page";

const path = "/interfaces/conformance";

function renderConformance() {
  return renderPageScreens(path, { "interface-conformance": InterfaceConformancePage }, { groups: ["coordinator"] });
}

/** A table's body rows as their cells' text. */
function rowsOf(name: string): string[][] {
  const table = screen.getByRole("table", { name });
  return within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.textContent ?? ""),
    );
}

describe("the interface conformance page", () => {
  it("lists every HL7 message, ACK code and error code of the contract's conformance data under column headers", async () => {
    renderConformance();
    expect(await screen.findByRole("heading", { level: 1, name: "Interface conformance" })).toBeTruthy();
    expect(screen.getByRole("heading", { level: 2, name: "HL7 v2 over MLLP" })).toBeTruthy();

    const messages = screen.getByRole("table", { name: "Supported messages" });
    expect(
      within(messages)
        .getAllByRole("columnheader")
        .map((header) => header.textContent),
    ).toEqual(["Direction", "Message (MSH-9)", "Order control (ORC-1)", "What Vigil does"]);
    const messageRows = rowsOf("Supported messages");
    expect(messageRows).toHaveLength(hl7Conformance.messages.length);
    expect(messageRows).toContainEqual(["To Vigil", "ORM^O01", "XO", expect.stringContaining("Change an order")]);
    expect(messageRows).toContainEqual(["To Vigil", "ADT^A08", "—", expect.any(String)]);
    expect(messageRows).toContainEqual(["From Vigil", "ORU^R01", "RE", expect.stringContaining("addendum")]);
    expect(messageRows).toContainEqual(["From Vigil", "ORM^O01", "SC", expect.stringContaining("ORC-5")]);

    expect(rowsOf("ACK codes (MSA-1)").map((row) => row[0])).toEqual(["AA", "AE", "AR"]);
    expect(rowsOf("Error codes (ERR-3, HL7 table 0357)").map((row) => row[0])).toEqual(
      hl7Conformance.errorCodes.map((error) => error.code),
    );
    expect(rowsOf("Required segments and fields").map((row) => row[0])).toContain("MSH-10");
    expect(screen.getByText(/Versions accepted \(MSH-12\): 2\.3, 2\.3\.1, 2\.4, 2\.5, 2\.5\.1, 2\.6\./)).toBeTruthy();
    expect(screen.getByText(/VT \(0x0B\) before and FS CR/)).toBeTruthy();
  });

  it("derives the FHIR resources from the route rows and links the live CapabilityStatement", async () => {
    renderConformance();
    expect(await screen.findByRole("heading", { level: 2, name: "FHIR R4" })).toBeTruthy();
    const origin = window.location.origin;
    expect(screen.getByText(`${origin}/fhir/R4`)).toBeTruthy();
    expect(screen.getByRole("link", { name: `${origin}/fhir/R4/metadata` }).getAttribute("href")).toBe(
      "/fhir/R4/metadata",
    );
    expect(screen.getByText(`${origin}/fhir/auth/token`)).toBeTruthy();
    expect(screen.getByText(/grant_type=client_credentials/)).toBeTruthy();

    const resources = rowsOf("Resources, interactions and scopes");
    expect(resources.map((row) => row[0])).toEqual(fhirResourcesOf().map((resource) => resource.resourceType));
    const task = resources.find((row) => row[0] === "Task");
    expect(task?.[1]).toBe("read, search-type, create, update");
    expect(task?.[2]).toBe("system/Task.r system/Task.s system/Task.c system/Task.u");
    const report = resources.find((row) => row[0] === "DiagnosticReport");
    expect(report?.[3]).toContain("based-on (reference): ServiceRequest/<id>");

    const usCore = rowsOf("US Core: met and not met");
    expect(usCore).toHaveLength(fhirConformance.usCore.length);
    expect(usCore).toContainEqual([
      "Patient",
      expect.stringContaining("race"),
      "Not met",
      "Vigil does not collect them",
    ]);
    expect(usCore.filter((row) => row[2] === "Met").length).toBeGreaterThan(0);
  });

  it("prints with the browser's dialog from a button the paper leaves off", async () => {
    const printed: string[] = [];
    const print = window.print;
    window.print = () => printed.push("print");
    try {
      renderConformance();
      const button = await screen.findByRole("button", { name: "Print" });
      expect(button.className).toContain("vigil-no-print");
      await userEvent.click(button);
      expect(printed).toEqual(["print"]);
    } finally {
      window.print = print;
    }
  });
});

describe("the FHIR resources of the conformance page", () => {
  it("has one entry per resource type of the route rows, without the public capabilities row", () => {
    const types = new Set(
      Object.values(fhirRoutes).flatMap((row) => ("resourceType" in row && row.resourceType ? [row.resourceType] : [])),
    );
    expect(
      fhirResourcesOf()
        .map((resource) => resource.resourceType)
        .sort(),
    ).toEqual([...types].sort());
    expect(fhirResourcesOf().find((resource) => resource.resourceType === "Binary")).toEqual({
      resourceType: "Binary",
      interactions: ["read"],
      scopes: ["system/Binary.r"],
      searchParams: [],
    });
  });
});
