import { createHmac } from "node:crypto";
import type { Db } from "../db/client.js";
import { maskDestination } from "../messaging/message-service.js";
import { loadServerSecret } from "./server-secrets-repository.js";
import { listUserAddresses, normaliseUsername } from "./users-repository.js";

type Holder = { sub: string; username: string; email: string };

/** How long the population of addresses is kept before it is read again. */
const populationLifetimeMs = 10 * 60_000;

/**
 * What ForgotPassword answers for a name with no account, so that the answer cannot tell it from a real one.
 *
 * A real answer is the user's masked email (`j***h@clinic.example`). The decoy for a name is modelled on one real
 * user, the holder, chosen by rendezvous hashing keyed with a secret all instances share: the same name always gets
 * the same holder (on every instance, across restarts), every user is equally likely, and a new user takes over only
 * about 1/N of the names, so the answers of unknown names do not all change when someone joins. The decoy takes the
 * holder's domain and copies how the holder's address relates to their username: where the holder's email starts
 * (or ends) with the username's letter, the decoy starts (or ends) with the asked name's; elsewhere it keeps the
 * holder's letter. Decoys thus follow the real distribution of domains and of name-to-address habits, and without
 * the key nobody can compute which decoy a name gets.
 *
 * Both paths of ForgotPassword call `destinationFor`, so the hashing costs a real user's request what it costs an
 * unknown name's.
 */
export class ForgotPasswordDecoys {
  private key: Buffer | undefined;
  private population: { holders: Holder[]; at: number } | undefined;

  constructor(
    private readonly db: Db,
    private readonly fallbackDomain: string,
  ) {}

  async destinationFor(username: string): Promise<{ destination: string; holder: Holder | undefined }> {
    const name = normaliseUsername(username);
    const key = await this.secret();
    const holders = await this.holders();
    const holder = pickHolder(key, name, holders);
    // A name that is an address shows that address masked, as a user whose username is their email would.
    if (name.includes("@")) return { destination: maskDestination("email", username.trim()), holder };
    if (!holder) return { destination: maskDestination("email", `${name}@${this.fallbackDomain}`), holder };
    return { destination: decoyDestination(name, holder), holder };
  }

  private async secret(): Promise<Buffer> {
    this.key ??= await loadServerSecret(this.db, "forgot-password-decoys");
    return this.key;
  }

  private async holders(): Promise<Holder[]> {
    if (!this.population || Date.now() - this.population.at > populationLifetimeMs) {
      this.population = { holders: await listUserAddresses(this.db), at: Date.now() };
    }
    return this.population.holders;
  }
}

/** Rendezvous (highest random weight) hashing: the holder whose keyed score for this name is highest. */
function pickHolder(key: Buffer, name: string, holders: Holder[]): Holder | undefined {
  let best: { holder: Holder; score: Buffer } | undefined;
  for (const holder of holders) {
    const score = createHmac("sha256", key).update(name).update("\u0000").update(holder.sub).digest();
    if (!best || Buffer.compare(score, best.score) > 0) best = { holder, score };
  }
  return best?.holder;
}

/** The asked name dressed as the holder's address: the holder's domain and the holder's username-to-email habits. */
export function decoyDestination(name: string, holder: Pick<Holder, "username" | "email">): string {
  const at = holder.email.lastIndexOf("@");
  const local = holder.email.slice(0, at);
  const domain = holder.email.slice(at + 1);
  const model = normaliseUsername(holder.username);
  if (local.toLowerCase() === model) return maskDestination("email", `${withCaseOf(name, local)}@${domain}`);
  const first = sameLetter(local[0], model[0]) ? withCaseOf(name[0] as string, local[0] as string) : local[0];
  if (local.length <= 1) return `${first ?? ""}***@${domain}`;
  const lastLetter = local[local.length - 1] as string;
  const last = sameLetter(lastLetter, model[model.length - 1])
    ? withCaseOf(name[name.length - 1] as string, lastLetter)
    : lastLetter;
  return `${first}***${last}@${domain}`;
}

function sameLetter(left: string | undefined, right: string | undefined): boolean {
  return left !== undefined && right !== undefined && left.toLowerCase() === right;
}

/** `text` in upper case where the model's first character is upper case (addresses keep the case they were given). */
function withCaseOf(text: string, model: string): string {
  const upper = model[0] !== undefined && model[0] !== model[0].toLowerCase();
  return upper ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}
