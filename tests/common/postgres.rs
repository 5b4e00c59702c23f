//! A PostgreSQL database of its own for a test: made on the server that
//! `SKID_TEST_POSTGRES` names, or that `.ci/postgres.sh` starts (installing
//! PostgreSQL where it is missing), and dropped when the test is done. In
//! CI a server that cannot be had fails the test; elsewhere the test is
//! skipped, saying why.
#![allow(dead_code)]

use std::sync::atomic::{AtomicU32, Ordering};

/// Databases made so far by this process.
static NEXT: AtomicU32 = AtomicU32::new(0);

/// A database of its own, dropped with this.
pub struct TestDb {
    /// Its address, for `--database`.
    pub url: String,
    base: String,
    name: String,
}

/// The address of a database tests may make databases from.
fn base() -> Option<String> {
    if let Ok(url) = std::env::var("SKID_TEST_POSTGRES") {
        assert!(
            url.starts_with("postgres://"),
            "SKID_TEST_POSTGRES is not a postgres:// address: {url:?}"
        );
        return Some(url);
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/postgres.sh");
    let out = std::process::Command::new("bash")
        .arg(script)
        .output()
        .ok()?;
    let url = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && url.starts_with("postgres://")).then_some(url)
}

/// A fresh database for the test `tag`, or none (the test is skipped)
/// outside CI where no PostgreSQL server can be had.
pub fn database(tag: &str) -> Option<TestDb> {
    let Some(base) = base() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs a PostgreSQL server: .ci/postgres.sh failed and SKID_TEST_POSTGRES is unset"
        );
        eprintln!(
            "skipped: no PostgreSQL server (.ci/postgres.sh could not start one; \
             or set SKID_TEST_POSTGRES=postgres://...)"
        );
        return None;
    };
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let name = format!("skid_{tag}_{}_{n}", std::process::id());
    let mut admin = postgres::Client::connect(&base, postgres::NoTls).expect("the test server");
    // One statement each: a batch is one transaction, which neither may
    // run in.
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name}"))
        .and_then(|()| admin.batch_execute(&format!("CREATE DATABASE {name}")))
        .expect("a database of the test's own");
    let at = base.rfind('/').expect("a database in the address");
    let url = format!("{}/{name}", &base[..at]);
    Some(TestDb { url, base, name })
}

impl TestDb {
    /// Ends every other connection to the database (the server's side
    /// of a lost connection).
    pub fn cut_connections(&self) {
        let mut admin = postgres::Client::connect(&self.base, postgres::NoTls).unwrap();
        admin
            .execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE datname = $1 AND pid <> pg_backend_pid()",
                &[&self.name],
            )
            .unwrap();
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Ok(mut admin) = postgres::Client::connect(&self.base, postgres::NoTls) {
            let _ = admin.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}
