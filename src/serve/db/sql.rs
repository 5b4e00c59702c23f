//! The SQL both databases run, written once: PostgreSQL's `$N`
//! parameters, which SQLite reads too (each bound by its place, in the
//! order they first appear). Only the log of changes' table differs (a
//! sequence is spelt differently in each), adding a column where it is
//! missing (SQLite asks first: [`HAS_COLUMN`]), and each database's own
//! settings.

/// Version 1's laps: each keyed player's best lap per track, model and
/// car, with its ghost (version 2 ranks aided laps apart:
/// [`LAPS_ON_BOARDS`]).
pub const LAPS: &str = "
    CREATE TABLE laps (
        identity TEXT NOT NULL,
        track_id TEXT NOT NULL,
        model TEXT NOT NULL,
        car_id TEXT NOT NULL,
        name TEXT NOT NULL,
        track TEXT NOT NULL,
        car TEXT NOT NULL,
        time DOUBLE PRECISION NOT NULL,
        ticks BIGINT NOT NULL,
        hz BIGINT NOT NULL,
        splits TEXT NOT NULL,
        medal TEXT,
        set_at BIGINT NOT NULL,
        ghost TEXT NOT NULL,
        PRIMARY KEY (identity, track_id, model, car_id)
    )";
/// Whether the steering aid steered the lap (1) or not (0): a column
/// that builds before version 2 added to version 1's table where it was
/// missing, and version 2's step adds where they did not.
pub const LAPS_AIDED: &str = "ALTER TABLE laps ADD COLUMN aided BIGINT NOT NULL DEFAULT 0";
pub const LAPS_AIDED_PG: &str =
    "ALTER TABLE laps ADD COLUMN IF NOT EXISTS aided BIGINT NOT NULL DEFAULT 0";
/// Whether SQLite's table `$1` has a column `$2` (1) or not (0).
pub const HAS_COLUMN: &str = "SELECT COUNT(*) FROM pragma_table_info($1) WHERE name = $2";
/// Version 1's order of the boards.
pub const LAPS_INDEX: &str =
    "CREATE INDEX laps_board ON laps (track_id, model, car_id, time, set_at)";

/// The step from version 1 to 2 ([`LAPS_AIDED`] first, where missing):
/// each keyed player's best lap per track, model and car on each board,
/// laps steered by hand and laps the steering aid steered (docs/SERVE.md,
/// "Records"), so that an aided lap never replaces an unaided one. The
/// table is made anew and every lap copied (SQLite cannot change a
/// primary key in place), in the migration's one transaction.
pub const LAPS_ON_BOARDS: &[&str] = &[
    "CREATE TABLE laps_on_boards (
        identity TEXT NOT NULL,
        track_id TEXT NOT NULL,
        model TEXT NOT NULL,
        car_id TEXT NOT NULL,
        name TEXT NOT NULL,
        track TEXT NOT NULL,
        car TEXT NOT NULL,
        time DOUBLE PRECISION NOT NULL,
        ticks BIGINT NOT NULL,
        hz BIGINT NOT NULL,
        splits TEXT NOT NULL,
        medal TEXT,
        set_at BIGINT NOT NULL,
        ghost TEXT NOT NULL,
        aided BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (identity, track_id, model, car_id, aided)
    )",
    "INSERT INTO laps_on_boards (identity, track_id, model, car_id, name, track, car,
        time, ticks, hz, splits, medal, set_at, ghost, aided)
     SELECT identity, track_id, model, car_id, name, track, car,
        time, ticks, hz, splits, medal, set_at, ghost, aided FROM laps",
    "DROP TABLE laps",
    "ALTER TABLE laps_on_boards RENAME TO laps",
    "CREATE INDEX laps_board ON laps (track_id, model, car_id, aided, time, set_at)",
    ROOMS,
];
/// The database's own notes (which data directories were imported).
pub const META: &str = "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)";

/// The rooms each server sharing the database has open, as its lobby
/// lists them, each stamped with the server's latest heartbeat (`beat`,
/// milliseconds since the epoch). Builds before version 2 made it (and
/// its `peer` column) where missing, outside the versioned schema;
/// version 2's step makes it where they did not, with every column, so
/// that a server of version 2 changes no table once the schema is its
/// own (a role that may not alter tables runs it: docs/SERVE.md).
pub const ROOMS: &str = "
    CREATE TABLE IF NOT EXISTS rooms (
        server TEXT NOT NULL,
        room BIGINT NOT NULL,
        track TEXT NOT NULL,
        model TEXT NOT NULL,
        players BIGINT NOT NULL,
        seats BIGINT NOT NULL,
        racing BIGINT NOT NULL,
        beat BIGINT NOT NULL,
        peer TEXT NOT NULL DEFAULT '',
        aid BIGINT NOT NULL DEFAULT 1,
        PRIMARY KEY (server, room)
    )";
/// Where another server reaches a room's server to relay a player to it
/// (`--peer`; empty: it takes no relays), added to a rooms' table made
/// before it.
pub const ROOMS_PEER: &str = "ALTER TABLE rooms ADD COLUMN peer TEXT NOT NULL DEFAULT ''";
pub const ROOMS_PEER_PG: &str =
    "ALTER TABLE rooms ADD COLUMN IF NOT EXISTS peer TEXT NOT NULL DEFAULT ''";
/// Whether the room's host allows the steering aid (1) or turned it off
/// (0), for the other servers' lobbies to say `no aid`; added to a
/// rooms' table made before it.
pub const ROOMS_AID: &str = "ALTER TABLE rooms ADD COLUMN aid BIGINT NOT NULL DEFAULT 1";
pub const ROOMS_AID_PG: &str =
    "ALTER TABLE rooms ADD COLUMN IF NOT EXISTS aid BIGINT NOT NULL DEFAULT 1";
/// A server's own rooms taken out, and those of servers long silent.
pub const ROOMS_CLEAR: &str = "DELETE FROM rooms WHERE server = $1 OR beat < $2";
pub const ROOM_PUT: &str = "
    INSERT INTO rooms (server, room, track, model, players, seats, racing, beat, peer, aid)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
/// The rooms of every other server heard from since `$2`.
pub const ROOMS_ELSEWHERE: &str = "
    SELECT server, room, track, model, players, seats, racing, peer, aid FROM rooms
    WHERE server <> $1 AND beat >= $2 ORDER BY server, room";

/// A lap kept only if it beats its driver's own for its key on its
/// board.
pub const UPSERT: &str = "
    INSERT INTO laps (identity, track_id, model, car_id, name, track, car, time,
        ticks, hz, splits, medal, set_at, ghost, aided)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
    ON CONFLICT (identity, track_id, model, car_id, aided) DO UPDATE SET
        name = excluded.name, track = excluded.track, car = excluded.car,
        time = excluded.time, ticks = excluded.ticks, hz = excluded.hz,
        splits = excluded.splits, medal = excluded.medal,
        set_at = excluded.set_at, ghost = excluded.ghost
    WHERE excluded.time < laps.time";
pub const CHANGE: &str = "INSERT INTO changes (track_id, model, car_id) VALUES ($1, $2, $3)";
/// The log of changes cut to its last `$1`.
pub const PRUNE: &str = "DELETE FROM changes WHERE seq < (SELECT MAX(seq) FROM changes) - $1";
pub const NEWEST_CHANGE: &str = "SELECT COALESCE(MAX(seq), 0) FROM changes";
pub const CHANGES_SINCE: &str =
    "SELECT seq, track_id, model, car_id FROM changes WHERE seq > $1 ORDER BY seq";

/// A player's lap for a key on a board (`$5`: aided).
pub const BEST: &str = "
    SELECT track, car, time, ticks, hz, splits, medal, ghost, aided FROM laps
    WHERE identity = $1 AND track_id = $2 AND model = $3 AND car_id = $4 AND aided = $5";
/// A board's best `$5` laps: identity, name, time, medal, aided (a
/// board's row, read by name). A board is a key's laps, aided (`$4`) or
/// not.
pub const TOP: &str = "
    SELECT identity, name, time, medal, aided FROM laps
    WHERE track_id = $1 AND model = $2 AND car_id = $3 AND aided = $4
    ORDER BY time, set_at LIMIT $5";
pub const COUNT: &str = "
    SELECT COUNT(*) FROM laps
    WHERE track_id = $1 AND model = $2 AND car_id = $3 AND aided = $4";
/// A player's lap on a board and how many are ahead of it (ties: who set
/// theirs first).
pub const PLACE: &str = "
    SELECT l.identity, l.name, l.time, l.medal, l.aided,
        (SELECT COUNT(*) FROM laps o
         WHERE o.track_id = l.track_id AND o.model = l.model AND o.car_id = l.car_id
           AND o.aided = l.aided
           AND (o.time < l.time OR (o.time = l.time AND o.set_at < l.set_at)))
    FROM laps l
    WHERE l.identity = $1 AND l.track_id = $2 AND l.model = $3 AND l.car_id = $4
      AND l.aided = $5";
/// The lap at a place on a board, the best at offset 0.
pub const AT: &str = "
    SELECT identity, name, time, medal, aided FROM laps
    WHERE track_id = $1 AND model = $2 AND car_id = $3 AND aided = $4
    ORDER BY time, set_at LIMIT 1 OFFSET $5";
pub const TRACKS: &str = "SELECT DISTINCT track_id FROM laps";
/// Every key with a lap on either board, with a track's and a car's
/// name.
pub const BOARDS: &str = "
    SELECT track_id, model, car_id, MAX(track), MAX(car) FROM laps
    GROUP BY track_id, model, car_id ORDER BY 4, 2, 5";
/// A track's best lap: identity, name, time, medal, aided, model, car;
/// an aided lap only where no lap was steered by hand.
pub const BEST_OF_TRACK: &str = "
    SELECT identity, name, time, medal, aided, model, car FROM laps
    WHERE track_id = $1 ORDER BY aided, time, set_at LIMIT 1";
pub const NOTE: &str = "SELECT value FROM meta WHERE key = $1";
pub const SET_NOTE: &str = "
    INSERT INTO meta (key, value) VALUES ($1, $2)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value";

/// Version 3's step: the tracks players build on the servers
/// (docs/SERVE.md, "Players' tracks"), each kept by its maker's key
/// (`owner`) under its name, with the track file (`body`) and its
/// content id (empty for a draft that does not parse); `published` is
/// when its maker published it (milliseconds since the epoch), 0 while
/// it is theirs alone.
pub const TRACKS_TABLE: &[&str] = &[
    "CREATE TABLE tracks (
        owner TEXT NOT NULL,
        name TEXT NOT NULL,
        maker TEXT NOT NULL,
        body TEXT NOT NULL,
        track_id TEXT NOT NULL,
        published BIGINT NOT NULL DEFAULT 0,
        saved_at BIGINT NOT NULL,
        PRIMARY KEY (owner, name)
    )",
    "CREATE INDEX tracks_published ON tracks (published)",
];
/// A maker's tracks other than the one named `$2`.
pub const TRACKS_OTHER: &str = "SELECT COUNT(*) FROM tracks WHERE owner = $1 AND name <> $2";
/// A track kept; changed, it is its maker's alone again until they
/// publish it anew (its board is another: the content id changed).
pub const TRACK_PUT: &str = "
    INSERT INTO tracks (owner, name, maker, body, track_id, published, saved_at)
    VALUES ($1, $2, $3, $4, $5, 0, $6)
    ON CONFLICT (owner, name) DO UPDATE SET
        maker = excluded.maker, body = excluded.body, saved_at = excluded.saved_at,
        published = CASE WHEN tracks.track_id = excluded.track_id
            THEN tracks.published ELSE 0 END,
        track_id = excluded.track_id";
/// A track's row less its body: `owner`, `name`, `maker`, `track_id`,
/// `published`, `saved_at`.
pub const TRACK_ROW: &str = "SELECT owner, name, maker, track_id, published, saved_at FROM tracks";
pub const TRACKS_OF: &str = "WHERE owner = $1 ORDER BY saved_at DESC, name";
pub const TRACKS_ALL: &str = "ORDER BY owner, name";
pub const TRACKS_PUBLISHED: &str = "WHERE published > 0 ORDER BY published, owner, name";
pub const TRACK_BODY: &str = "SELECT body FROM tracks WHERE owner = $1 AND name = $2";
/// Publishes a track whose maker has a lap of it as it is now (on any
/// board): as Trackmania's author must drive theirs first.
pub const TRACK_PUBLISH: &str = "
    UPDATE tracks SET published = $1
    WHERE owner = $2 AND name = $3 AND published = 0 AND track_id <> ''
      AND EXISTS (SELECT 1 FROM laps
                  WHERE laps.identity = tracks.owner AND laps.track_id = tracks.track_id)";
pub const TRACK_UNPUBLISH: &str = "UPDATE tracks SET published = 0 WHERE owner = $1 AND name = $2";
pub const TRACK_REMOVE: &str = "DELETE FROM tracks WHERE owner = $1 AND name = $2";
/// Whether (and when) a track is published.
pub const TRACK_PUBLISHED: &str = "SELECT published FROM tracks WHERE owner = $1 AND name = $2";
