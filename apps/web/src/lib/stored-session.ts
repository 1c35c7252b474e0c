/**
 * Whether Amplify holds a signed-in user in this browser: its token store keeps
 * `CognitoIdentityServiceProvider.<client id>.LastAuthUser` in localStorage. Read directly, before Amplify is even
 * configured, only to guess which screen comes first; who is signed in is still Amplify's to say.
 */
export function hasStoredSession(storage: Pick<Storage, "length" | "key">): boolean {
  try {
    for (let index = 0; index < storage.length; index += 1) {
      const key = storage.key(index);
      if (key?.startsWith("CognitoIdentityServiceProvider.") && key.endsWith(".LastAuthUser")) return true;
    }
    return false;
  } catch {
    // Storage can be refused (privacy settings); then nobody is remembered either.
    return false;
  }
}
