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

/// Runs `test` with the address of a fresh database for `tag` on a tokio
/// runtime of two threads; the database is made and dropped outside it
/// (PostgreSQL's blocking client runs a runtime of its own). Skipped as
/// [`database`] says.
pub fn on_runtime<F: std::future::Future<Output = ()>>(tag: &str, test: impl FnOnce(String) -> F) {
    let Some(db) = database(tag) else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(test(db.url.clone()));
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

/// A PostgreSQL server of the test's own (a cluster made by `initdb` in
/// a temporary directory, on a free port of 127.0.0.1), whose processes
/// the test may stop and resume: a database that stops answering, as a
/// hung server or a network that drops packets does. Stopped and removed
/// when dropped.
pub struct Private {
    /// The address of its database `postgres`, as user `skid` (trusted).
    pub url: String,
    dir: std::path::PathBuf,
    server: std::process::Child,
}

/// The directory of the newest PostgreSQL's programs installed, after
/// `.ci/postgres.sh` has installed them if they were missing.
fn bin_dir() -> Option<std::path::PathBuf> {
    let newest = || {
        let mut versions: Vec<u32> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
            .collect();
        versions.sort_unstable();
        let bin = std::path::PathBuf::from(format!("/usr/lib/postgresql/{}/bin", versions.last()?));
        bin.join("initdb").exists().then_some(bin)
    };
    newest().or_else(|| {
        base()?;
        newest()
    })
}

/// `program` with `args`, as the user `postgres` when run as root
/// (PostgreSQL will not run as root).
fn as_postgres(program: &std::path::Path) -> std::process::Command {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        let mut c = std::process::Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        std::process::Command::new(program)
    }
}

/// The processes whose parent is `pid`.
fn children(pid: i32) -> Vec<i32> {
    let Ok(all) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    all.filter_map(|e| {
        let child: i32 = e.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{child}/stat")).ok()?;
        let parent: i32 = stat
            .rsplit_once(')')?
            .1
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()?;
        (parent == pid).then_some(child)
    })
    .collect()
}

impl Private {
    /// A new server, running; none (the test skipped) outside CI where
    /// PostgreSQL cannot be had.
    pub fn start(tag: &str) -> Option<Private> {
        let Some(bin) = bin_dir() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI needs PostgreSQL's programs: .ci/postgres.sh installs them"
            );
            eprintln!("skipped: PostgreSQL is not installed (.ci/postgres.sh installs it)");
            return None;
        };
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("skid-pg-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            let id = |flag: &str| -> u32 {
                let out = std::process::Command::new("id")
                    .args([flag, "postgres"])
                    .output()
                    .expect("id");
                String::from_utf8(out.stdout)
                    .unwrap()
                    .trim()
                    .parse()
                    .expect("the postgres user")
            };
            std::os::unix::fs::chown(&dir, Some(id("-u")), Some(id("-g"))).unwrap();
        }
        let data = dir.join("data");
        let made = as_postgres(&bin.join("initdb"))
            .args(["-A", "trust", "-U", "skid", "--no-sync", "-D"])
            .arg(&data)
            .output()
            .expect("initdb runs");
        assert!(
            made.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&made.stderr)
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let server = as_postgres(&bin.join("postgres"))
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string(), "-k"])
            .arg(&dir)
            .args(["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("postgres starts");
        let url = format!("postgres://skid@127.0.0.1:{port}/postgres");
        let private = Private { url, dir, server };
        let end = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while postgres::Client::connect(&private.url, postgres::NoTls).is_err() {
            assert!(
                std::time::Instant::now() < end,
                "the private PostgreSQL never answered"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        Some(private)
    }

    /// The postmaster's process id, while it runs.
    fn postmaster(&self) -> Option<i32> {
        let pid = std::fs::read_to_string(self.dir.join("data/postmaster.pid")).ok()?;
        pid.lines().next()?.trim().parse().ok()
    }

    /// Sends `signal` to the server and every process it started.
    fn signal(&self, signal: i32) {
        let Some(pm) = self.postmaster() else { return };
        for pid in std::iter::once(pm).chain(children(pm)) {
            // SAFETY: kill(2) on the server's processes, which we started.
            unsafe { libc::kill(pid, signal) };
        }
    }

    /// Stops every process of the server (SIGSTOP): it answers nothing,
    /// while the kernel keeps its connections open and accepts new ones.
    pub fn stop(&self) {
        self.signal(libc::SIGSTOP);
    }

    /// Lets the server run again (SIGCONT).
    pub fn resume(&self) {
        self.signal(libc::SIGCONT);
    }
}

impl Drop for Private {
    fn drop(&mut self) {
        self.resume();
        // PostgreSQL's immediate shutdown, then whatever is left.
        if let Some(pm) = self.postmaster() {
            // SAFETY: kill(2) on the server we started.
            unsafe { libc::kill(pm, libc::SIGQUIT) };
            let end = std::time::Instant::now() + std::time::Duration::from_secs(5);
            while std::time::Instant::now() < end
                && std::path::Path::new(&format!("/proc/{pm}")).exists()
            {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            self.signal(libc::SIGKILL);
        }
        let _ = self.server.kill();
        let _ = self.server.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
