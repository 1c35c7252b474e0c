import { describe, expect, it } from "vitest";
import { hasStoredSession } from "./stored-session";

const storageWith = (keys: string[]) => ({ length: keys.length, key: (index: number) => keys[index] ?? null });

describe("hasStoredSession", () => {
  it("sees the user Amplify remembers", () => {
    expect(
      hasStoredSession(
        storageWith(["vigil.other", "CognitoIdentityServiceProvider.vigilweb0000000000000000000.LastAuthUser"]),
      ),
    ).toBe(true);
  });

  it("says nobody is signed in without Amplify's last user, or when storage is refused", () => {
    expect(hasStoredSession(storageWith([]))).toBe(false);
    expect(hasStoredSession(storageWith(["CognitoIdentityServiceProvider.x.clockDrift"]))).toBe(false);
    const refused = {
      get length(): number {
        throw new DOMException("denied", "SecurityError");
      },
      key: () => null,
    };
    expect(hasStoredSession(refused)).toBe(false);
  });
});
