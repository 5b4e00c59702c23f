//! Key to screen over SSH (issue 51): how long from a key's bytes sent to
//! the screen showing its effect, for a racer alone on loopback with no
//! other load. An in-process `skid serve` and one SSH client at 80x24 in
//! a race on `pocket`; the key is `?`, which opens the help over the race
//! (and closes it again), so its effect is a whole-screen change that the
//! client reads back in a terminal emulator, polled every 0.2 ms.
//!
//! Run twice in the same process: with keys drawn at once after the step
//! that applies them (`keys_at_once`, the server's way now) and with
//! every frame on the 30 frames a second clock (before). Prints p50, p90
//! and the worst, in milliseconds. `cargo bench --bench keys`.

#[path = "../tests/common/in_process.rs"]
mod in_process;
#[path = "../tests/common/ssh.rs"]
mod ssh;

use std::time::{Duration, Instant};

/// Keys timed per run.
const KEYS: usize = 200;

/// The help over a race says this; the race alone does not.
const HELP: &str = "leave the race; in the lobby, hang up";

async fn run(keys_at_once: bool) -> Vec<f64> {
    let mut opts = in_process::options(in_process::temp_dir(&format!("keys-{keys_at_once}")));
    opts.keys_at_once = keys_at_once;
    let srv = skid::serve::start(opts).await.expect("server");
    let p = ssh::join(srv.addr, "kay", (80, 24)).await;
    p.wait_for("you are kay", 5.0).await;
    p.send(b"\r").await;
    p.wait_for("room 1", 5.0).await;
    p.send(b"\r").await;
    p.wait_for("LAP", 5.0).await;
    tokio::time::sleep(Duration::from_secs(4)).await; // the start lights
    let mut took = Vec::with_capacity(KEYS);
    for i in 0..KEYS {
        let open = i % 2 == 0;
        // Keys land anywhere in a frame's turn, as a person's do.
        tokio::time::sleep(Duration::from_micros(20_000 + (i as u64 * 7_919) % 33_000)).await;
        let sent = Instant::now();
        p.send(b"?").await;
        loop {
            if p.text().contains(HELP) == open {
                break;
            }
            assert!(
                sent.elapsed() < Duration::from_secs(2),
                "the key never showed"
            );
            tokio::time::sleep(Duration::from_micros(200)).await;
        }
        took.push(sent.elapsed().as_secs_f64() * 1000.0);
    }
    srv.shutdown().await;
    took
}

fn summary(mut ms: Vec<f64>) -> String {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    format!("{:.1} | {:.1} | {:.1}", at(0.5), at(0.9), ms[ms.len() - 1])
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent: nothing to
    // time.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    println!("| frames | key to screen p50 | p90 | max (ms) |");
    println!("| --- | --- | --- | --- |");
    for (name, at_once) in [
        ("on the 30 fps clock (before)", false),
        ("a key drawn at once", true),
    ] {
        let ms = rt.block_on(run(at_once));
        println!("| {name} | {} |", summary(ms));
    }
}
