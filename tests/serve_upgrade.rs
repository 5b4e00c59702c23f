//! A server's database of earlier schema versions upgraded by this build
//! (3: players' tracks beside the laps) on SQLite and PostgreSQL. From
//! version 1 (one lap per player and key, whatever its board): every lap
//! kept, aided and unaided ones, with its ghost; after it, a player's
//! faster aided lap stands beside their unaided record instead of
//! replacing it. From version 2 (the previous one): every lap kept, and
//! players' tracks kept, published once driven, taken back.
#![cfg(feature = "serve")]

#[path = "common/laps.rs"]
mod laps;
#[path = "common/postgres.rs"]
mod postgres_db;

use skid::physics::models::ModelKind;
use skid::race::records::Record;
use skid::serve::db::{self, Database};
use skid::serve::keeper::{Keeper, LapKey};

/// Version 1's tables as a build of that version made them (the
/// `changes` table's sequence is spelt per database), frozen here: the
/// schema this test upgrades from.
const VERSION_1: [&str; 3] = [
    "CREATE TABLE laps (
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
    )",
    "CREATE INDEX laps_board ON laps (track_id, model, car_id, time, set_at)",
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
];
/// The column the last builds of version 1 added where it was missing.
const AIDED: &str = "ALTER TABLE laps ADD COLUMN aided BIGINT NOT NULL DEFAULT 0";

/// The laps in the old database: (who, time, aided), each with a ghost
/// whose x is its time. Without the `aided` column, none is aided.
const OLD_LAPS: [(&str, f64, bool); 3] = [
    ("ann", 21.5, false),
    ("bob", 12.0, true),
    ("cat", 25.0, false),
];

fn key() -> LapKey {
    ("00ff".into(), ModelKind::Arcade, "c".into())
}

fn insert(aided_column: bool) -> Vec<String> {
    OLD_LAPS
        .iter()
        .map(|&(who, time, aided)| {
            let (column, value) = if aided_column {
                (", aided", format!(", {}", i64::from(aided)))
            } else {
                ("", String::new())
            };
            format!(
                "INSERT INTO laps (identity, track_id, model, car_id, name, track, car, time, \
                 ticks, hz, splits, medal, set_at, ghost{column}) VALUES ('SHA256:{who}', '00ff', \
                 'arcade', 'c', '{who}', 'pocket', 'hatch', {time}, {}, 120, '600,1200', NULL, 1, \
                 '# x,y,heading every 4 ticks\n{time:.3},1.000,0.5000\n'{value})",
                (time * 120.0) as i64
            )
        })
        .collect()
}

fn aided(time: f64) -> Record {
    Record {
        aided: true,
        ..laps::on_00ff(time)
    }
}

/// What the upgraded database holds: every old lap, with its ghost, on
/// the board it was set on; then ann's faster aided lap beside her
/// unaided record, and both boards ranked apart.
fn check(db: &mut dyn Database, aided_column: bool) {
    for &(who, time, was_aided) in &OLD_LAPS {
        let on = was_aided && aided_column;
        let identity = format!("SHA256:{who}");
        let (r, ghost) = db.best(&identity, &key(), on).unwrap().expect(who);
        assert_eq!((r.time, r.aided, r.splits), (time, on, vec![600, 1200]));
        assert_eq!(ghost, [[time, 1.0, 0.5]], "{who}'s ghost");
    }
    let boards = db.boards_of(&key(), 10, &[]).unwrap();
    let names = |b: &db::Board| b.top.iter().map(|e| e.name.clone()).collect::<Vec<_>>();
    if aided_column {
        assert_eq!(names(&boards.unaided), ["ann", "cat"]);
        assert_eq!(names(&boards.aided), ["bob"]);
    } else {
        assert_eq!(names(&boards.unaided), ["bob", "ann", "cat"]);
        assert!(boards.aided.top.is_empty());
    }
}

/// Ann's faster aided lap, kept through a server on the upgraded
/// database `url` (none: the SQLite file in `dir`): her unaided record
/// stands.
fn anns_aided_lap(url: Option<&str>, dir: &std::path::Path, db: &mut dyn Database) {
    {
        let mut k = Keeper::on(url, dir).unwrap();
        k.save("SHA256:ann", "ann", aided(11.0), vec![[11.0, 1.0, 0.5]]);
    }
    let unaided = db.best("SHA256:ann", &key(), false).unwrap().unwrap();
    assert_eq!((unaided.0.time, unaided.1), (21.5, vec![[21.5, 1.0, 0.5]]));
    let aided = db.best("SHA256:ann", &key(), true).unwrap().unwrap();
    assert_eq!(aided.0.time, 11.0);
    let boards = db.boards_of(&key(), 10, &[]).unwrap();
    assert_eq!(boards.aided.top[0].name, "ann");
    assert_ne!(boards.unaided.top[0].time, 11.0, "never above the unaided");
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("skid-upgrade-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn an_sqlite_database_of_version_1_keeps_every_lap() {
    for aided_column in [true, false] {
        let dir = temp(&format!("sqlite-{aided_column}"));
        let file = dir.join("skid.db");
        {
            let old = rusqlite::Connection::open(&file).unwrap();
            for statement in VERSION_1 {
                old.execute_batch(statement).unwrap();
            }
            old.execute_batch(
                "CREATE TABLE changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, \
                 track_id TEXT NOT NULL, model TEXT NOT NULL, car_id TEXT NOT NULL)",
            )
            .unwrap();
            if aided_column {
                old.execute_batch(AIDED).unwrap();
            }
            for statement in insert(aided_column) {
                old.execute_batch(&statement).unwrap();
            }
            old.pragma_update(None, "user_version", 1).unwrap();
        }
        let mut db = db::Sqlite::open(&file).unwrap();
        let version: i64 = rusqlite::Connection::open(&file)
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, 3);
        check(&mut db, aided_column);
        anns_aided_lap(None, &dir, &mut db);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_postgresql_database_of_version_1_keeps_every_lap() {
    for aided_column in [true, false] {
        let Some(test_db) = postgres_db::database(&format!("upgrade{}", u8::from(aided_column)))
        else {
            return;
        };
        {
            let mut old = postgres::Client::connect(&test_db.url, postgres::NoTls).unwrap();
            let mut tx = old.transaction().unwrap();
            for statement in VERSION_1 {
                tx.batch_execute(statement).unwrap();
            }
            tx.batch_execute(
                "CREATE TABLE changes (seq BIGSERIAL PRIMARY KEY, track_id TEXT NOT NULL, \
                 model TEXT NOT NULL, car_id TEXT NOT NULL);
                 CREATE TABLE skid_schema (version BIGINT NOT NULL);
                 INSERT INTO skid_schema (version) VALUES (1)",
            )
            .unwrap();
            if aided_column {
                tx.batch_execute(AIDED).unwrap();
            }
            for statement in insert(aided_column) {
                tx.batch_execute(&statement).unwrap();
            }
            tx.commit().unwrap();
        }
        let mut db = db::open_existing(&test_db.url).unwrap();
        let mut old = postgres::Client::connect(&test_db.url, postgres::NoTls).unwrap();
        let version: i64 = old
            .query_one("SELECT version FROM skid_schema", &[])
            .unwrap()
            .get(0);
        assert_eq!(version, 3);
        check(db.as_mut(), aided_column);
        let dir = temp(&format!("pg-{aided_column}"));
        anns_aided_lap(Some(&test_db.url), &dir, db.as_mut());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A role of least privilege on the database `db` (rows read and
/// written, no table changed), dropped with it: its address.
struct Role {
    url: String,
    base: String,
    name: String,
}

impl Role {
    fn on(db: &postgres_db::TestDb) -> Role {
        let name = format!("skid_rows_{}", std::process::id());
        let mut admin = postgres::Client::connect(&db.url, postgres::NoTls).unwrap();
        let dbname = db.url.rsplit_once('/').unwrap().1.to_string();
        admin
            .batch_execute(&format!(
                "DROP ROLE IF EXISTS {name};
                 CREATE ROLE {name} LOGIN PASSWORD 'rows';
                 GRANT CONNECT ON DATABASE {dbname} TO {name};
                 GRANT USAGE ON SCHEMA public TO {name};
                 GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {name};
                 GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {name};"
            ))
            .unwrap();
        let (who, place) = db.url.split_once('@').unwrap();
        let scheme = who.split_once("//").unwrap().0;
        Role {
            url: format!("{scheme}//{name}:rows@{place}"),
            base: db.url.clone(),
            name,
        }
    }
}

impl Drop for Role {
    fn drop(&mut self) {
        if let Ok(mut admin) = postgres::Client::connect(&self.base, postgres::NoTls) {
            let _ = admin.batch_execute(&format!(
                "REASSIGN OWNED BY {0} TO CURRENT_USER; DROP OWNED BY {0}; DROP ROLE IF EXISTS {0}",
                self.name
            ));
        }
    }
}

/// Operators give a server a role that reads and writes rows but may not
/// change tables. On a schema of this build's it serves: laps kept, the
/// boards online, its rooms published. On a schema behind it, it is
/// refused at once, for good, saying what to do (not retried quietly).
#[test]
fn a_role_that_may_not_change_tables_runs_a_server_on_its_schema() {
    let Some(test_db) = postgres_db::database("rows") else {
        return;
    };
    // The schema made by its owner.
    drop(Keeper::on(Some(&test_db.url), &temp("rows-owner")).unwrap());
    let role = Role::on(&test_db);
    {
        let mut k = Keeper::on(Some(&role.url), &temp("rows")).unwrap();
        assert!(k.online, "{:?}", k.down_at_start);
        k.save("SHA256:ann", "ann", aided(20.0), vec![]);
        k.ask_board(key(), vec![]);
        let end = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while k.boards.get(&key()).is_none_or(|b| b.aided.top.is_empty()) {
            assert!(std::time::Instant::now() < end, "the board never came");
            k.poll();
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
    let mut db = db::open_existing(&role.url).unwrap();
    let room = db::Listed {
        server: "one".into(),
        room: 1,
        track: "pocket".into(),
        model: ModelKind::Arcade,
        players: 1,
        seats: 4,
        racing: false,
        peer: None,
        aid: false,
    };
    db.publish_rooms("one", std::slice::from_ref(&room), 1000)
        .unwrap();
    assert_eq!(db.rooms_elsewhere("two", 1000).unwrap(), [room]);
    // A schema behind this build's: refused at once, saying why.
    let mut owner = postgres::Client::connect(&test_db.url, postgres::NoTls).unwrap();
    owner
        .batch_execute("UPDATE skid_schema SET version = 1")
        .unwrap();
    let start = std::time::Instant::now();
    let Err(why) = Keeper::on(Some(&role.url), &temp("rows-behind")) else {
        panic!("a schema it may not migrate was used");
    };
    assert!(start.elapsed() < std::time::Duration::from_secs(3));
    assert!(
        why.contains("from version 1 to 3") && why.contains("owns the tables"),
        "{why}"
    );
    assert!(!why.contains(":rows@"), "no password: {why}");
}

/// Version 2's tables as a build of that version made them (the
/// `changes` table's sequence is spelt per database), frozen here.
const VERSION_2: [&str; 4] = [
    "CREATE TABLE laps (
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
    "CREATE INDEX laps_board ON laps (track_id, model, car_id, aided, time, set_at)",
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE rooms (
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
    )",
];

/// A track of ann's, `body` under `name`, with content id `id`.
fn anns_track(name: &str, body: &str, id: &str) -> db::ToShelve {
    db::ToShelve {
        owner: "SHA256:ann".into(),
        name: name.into(),
        maker: "ann".into(),
        body: body.into(),
        track_id: id.into(),
    }
}

/// The players' tracks on an upgraded database: kept, at most `most` a
/// maker; private until their maker has a lap of them as they are;
/// unpublished by a change; taken back; removed.
fn shelf(db: &mut dyn Database) {
    use db::{Publishing, Shelving, Whose};
    let ring = anns_track("Ring", "name = \"Ring\"\n", "00ff");
    assert_eq!(
        db.shelve(&ring, 2, 5).unwrap(),
        Shelving::Saved { published: false }
    );
    let other = anns_track("Loop", "x", "");
    assert_eq!(
        db.shelve(&other, 2, 6).unwrap(),
        Shelving::Saved { published: false }
    );
    let third = anns_track("Third", "x", "");
    assert_eq!(db.shelve(&third, 2, 7).unwrap(), Shelving::Full(2));
    // Saved again under its name: not a third.
    assert_eq!(
        db.shelve(&ring, 2, 8).unwrap(),
        Shelving::Saved { published: false }
    );
    assert_eq!(
        db.track_body("SHA256:ann", "Ring").unwrap().as_deref(),
        Some(ring.body.as_str())
    );
    assert_eq!(db.track_body("SHA256:bob", "Ring").unwrap(), None, "ann's");
    // Ann has a lap on 00ff: Ring may be published; Loop, a draft, not.
    assert_eq!(
        db.publish_track("SHA256:ann", "Loop", true, 9).unwrap(),
        Publishing::NotDriven
    );
    assert_eq!(
        db.publish_track("SHA256:bob", "Ring", true, 9).unwrap(),
        Publishing::Missing
    );
    assert_eq!(
        db.publish_track("SHA256:ann", "Ring", true, 9).unwrap(),
        Publishing::Published
    );
    let published = db.shelf(Whose::Published).unwrap();
    assert_eq!(published.len(), 1);
    assert_eq!(
        (published[0].name.as_str(), published[0].maker.as_str()),
        ("Ring", "ann")
    );
    // Saved unchanged it stays published; changed, it is hers alone.
    assert_eq!(
        db.shelve(&ring, 2, 10).unwrap(),
        Shelving::Saved { published: true }
    );
    let changed = anns_track("Ring", "changed", "0100");
    assert_eq!(
        db.shelve(&changed, 2, 11).unwrap(),
        Shelving::Saved { published: false }
    );
    assert!(db.shelf(Whose::Published).unwrap().is_empty());
    assert_eq!(
        db.shelve(&ring, 2, 12).unwrap(),
        Shelving::Saved { published: false }
    );
    db.publish_track("SHA256:ann", "Ring", true, 13).unwrap();
    assert_eq!(
        db.publish_track("SHA256:ann", "Ring", false, 14).unwrap(),
        Publishing::Unpublished
    );
    let mine = db.shelf(Whose::Owner("SHA256:ann")).unwrap();
    let names: Vec<_> = mine
        .iter()
        .map(|t| (t.name.as_str(), t.published))
        .collect();
    assert_eq!(names, [("Ring", false), ("Loop", false)], "newest first");
    assert!(db.remove_track("SHA256:ann", "Loop").unwrap());
    assert!(!db.remove_track("SHA256:ann", "Loop").unwrap());
    assert_eq!(db.shelf(Whose::All).unwrap().len(), 1);
}

#[test]
fn an_sqlite_database_of_version_2_keeps_every_lap() {
    let dir = temp("sqlite-v2");
    let file = dir.join("skid.db");
    {
        let old = rusqlite::Connection::open(&file).unwrap();
        for statement in VERSION_2 {
            old.execute_batch(statement).unwrap();
        }
        old.execute_batch(
            "CREATE TABLE changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, \
             track_id TEXT NOT NULL, model TEXT NOT NULL, car_id TEXT NOT NULL)",
        )
        .unwrap();
        for statement in insert(true) {
            old.execute_batch(&statement).unwrap();
        }
        old.pragma_update(None, "user_version", 2).unwrap();
    }
    let mut db = db::Sqlite::open(&file).unwrap();
    let version: i64 = rusqlite::Connection::open(&file)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 3);
    check(&mut db, true);
    shelf(&mut db);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_postgresql_database_of_version_2_keeps_every_lap() {
    let Some(test_db) = postgres_db::database("upgrade2") else {
        return;
    };
    {
        let mut old = postgres::Client::connect(&test_db.url, postgres::NoTls).unwrap();
        let mut tx = old.transaction().unwrap();
        for statement in VERSION_2 {
            tx.batch_execute(statement).unwrap();
        }
        tx.batch_execute(
            "CREATE TABLE changes (seq BIGSERIAL PRIMARY KEY, track_id TEXT NOT NULL, \
             model TEXT NOT NULL, car_id TEXT NOT NULL);
             CREATE TABLE skid_schema (version BIGINT NOT NULL);
             INSERT INTO skid_schema (version) VALUES (2)",
        )
        .unwrap();
        for statement in insert(true) {
            tx.batch_execute(&statement).unwrap();
        }
        tx.commit().unwrap();
    }
    let mut db = db::open_existing(&test_db.url).unwrap();
    let mut old = postgres::Client::connect(&test_db.url, postgres::NoTls).unwrap();
    let version: i64 = old
        .query_one("SELECT version FROM skid_schema", &[])
        .unwrap()
        .get(0);
    assert_eq!(version, 3);
    check(db.as_mut(), true);
    shelf(db.as_mut());
}
