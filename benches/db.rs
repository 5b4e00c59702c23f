//! The server's laps' database (`serve::db`, SQLite) with 100,000 laps
//! stored (100 boards of 1,000 players each): a board read (the top ten,
//! the count, and one player's place), both boards of a key read as the
//! records' thread reads them (the aided one empty), and laps written in one
//! transaction as the records' thread batches them (the goal: 1,000 laps
//! a second written while a board read stays under 1 ms, both on the one
//! thread that owns the database).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use skid::physics::models::ModelKind;
use skid::race::records::Record;
use skid::serve::db::{Database, NewLap, Sqlite};

const BOARDS: usize = 100;
const PLAYERS: usize = 1000;

fn lap(board: usize, player: usize, time: f64) -> NewLap {
    NewLap {
        identity: format!("SHA256:player{player}"),
        name: format!("player{player}"),
        record: Record {
            track: format!("track{board}"),
            track_id: format!("{board:016x}"),
            model: ModelKind::Arcade,
            car: "hatch".into(),
            car_id: "c".into(),
            time,
            ticks: (time * 120.0) as u64,
            hz: 120,
            splits: vec![1200, 2400],
            medal: None,
            aided: false,
        },
        // A 20 s lap's ghost: a pose every 4 ticks.
        ghost: vec![[12.345, 67.891, 1.2345]; 600],
    }
}

fn filled() -> (std::path::PathBuf, Sqlite) {
    let dir = std::env::temp_dir().join(format!("skid-bench-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut db = Sqlite::open(&dir.join("skid.db")).unwrap();
    for board in 0..BOARDS {
        let laps: Vec<NewLap> = (0..PLAYERS)
            .map(|p| lap(board, p, 20.0 + (p * 7919 % PLAYERS) as f64 / 100.0))
            .collect();
        db.save(&laps, 0).unwrap();
    }
    (dir, db)
}

fn bench(c: &mut Criterion) {
    let (dir, mut db) = filled();
    let key = (format!("{:016x}", 42), ModelKind::Arcade, "c".to_string());
    let who = vec!["SHA256:player500".to_string()];
    c.bench_function("db/board of 1,000 among 100,000 laps", |b| {
        b.iter(|| black_box(db.board(&key, false, 10, &who).unwrap()));
    });
    c.bench_function("db/both boards of a key among 100,000 laps", |b| {
        b.iter(|| black_box(db.boards_of(&key, 10, &who).unwrap()));
    });
    // 250 laps in one transaction: what a quarter second holds at 1,000
    // laps a second; every one a better lap, so every one is written.
    let mut time = 19.0;
    c.bench_function("db/250 better laps in one transaction", |b| {
        b.iter(|| {
            time -= 0.001;
            let laps: Vec<NewLap> = (0..250).map(|p| lap(p % BOARDS, p, time)).collect();
            black_box(db.save(&laps, 1).unwrap());
        });
    });
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
