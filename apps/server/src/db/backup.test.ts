import { describe, expect, it } from "vitest";
import { defaultBackupFile } from "./backup-format.js";
import { libpqConnection } from "./backup-postgres.js";

// The round trips on both engines, filled with the demo data, are in reliability/backup-round-trips.test.ts.

describe("backup files and connections", () => {
  it("names a default backup after its engine and the UTC time, under DATA_DIR/backups or the working folder", () => {
    const now = new Date("2026-05-19T14:30:05.123Z");
    const folders = { dataDir: "/srv/vigil/data", workingDir: "/home/ops" };
    expect(defaultBackupFile({ engine: "pglite", dataDir: folders.dataDir }, folders, now)).toBe(
      "/srv/vigil/data/backups/vigil-pglite-20260519T143005Z.tar.gz",
    );
    expect(defaultBackupFile({ engine: "postgres", url: "postgres://db/vigil", environment: {} }, folders, now)).toBe(
      "/home/ops/vigil-postgres-20260519T143005Z.dump",
    );
  });

  it("hands pg_dump the connection in libpq variables, the password only in PGPASSWORD", () => {
    const connection = libpqConnection(
      "postgresql://vigil%40ops:s3cr%2Ft@db.example:6432/vigil_prod?sslmode=require",
      {},
    );
    expect(connection.env).toMatchObject({
      PGHOST: "db.example",
      PGPORT: "6432",
      PGUSER: "vigil@ops",
      PGPASSWORD: "s3cr/t",
      PGDATABASE: "vigil_prod",
      PGSSLMODE: "require",
    });
    expect(connection.database).toBe("vigil_prod");
    expect(connection.display).not.toContain("s3cr");
    expect(libpqConnection("postgres://u@[::1]/d?ssl=true", {}).env).toMatchObject({
      PGHOST: "::1",
      PGSSLMODE: "require",
    });
  });

  it("takes libpq's defaults from the configuration's environment, and the URL over them", () => {
    const inherited = { PATH: "/usr/lib/postgresql/16/bin", PGUSER: "ops", PGDATABASE: "vigil_main" };
    const fromDefaults = libpqConnection("postgres://db.example", inherited);
    expect(fromDefaults.database).toBe("vigil_main");
    expect(fromDefaults.inherited).toBe(inherited);
    expect(libpqConnection("postgres://db.example", { PGUSER: "ops" }).database).toBe("ops");
    expect(libpqConnection("postgres://ana@db.example/vigil_test", inherited).env).toMatchObject({
      PGUSER: "ana",
      PGDATABASE: "vigil_test",
    });
  });
});
