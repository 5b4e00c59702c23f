//! A slow lap to hold as a record: 40 s on pocket in arcade with the
//! model's own car (the title menu's and a room's first choice), with
//! its ghost, for tests where a faster lap comes after it.
#![allow(dead_code)]

use skid::physics::models::ModelKind;
use skid::race::records::Record;

/// The lap, driven by hand.
pub fn slow_on_pocket() -> (Record, Vec<[f64; 3]>) {
    let track = skid::track::bundled::load_raceable("pocket").unwrap();
    let car = skid::physics::car::CarSpec::default_for(ModelKind::Arcade);
    let record = Record {
        track: track.name.clone(),
        track_id: track.content_id(),
        model: ModelKind::Arcade,
        car: car.name.clone(),
        car_id: car.content_id(),
        time: 40.0,
        ticks: 4800,
        hz: 120,
        splits: vec![1600, 3200],
        medal: None,
        aided: false,
    };
    (record, vec![[7.0, 8.0, 0.5]; 1201])
}

/// A lap of `time` seconds by hand on the made-up track `00ff` in
/// arcade with car `c`, as the server's records' tests keep them.
pub fn on_00ff(time: f64) -> Record {
    Record {
        track: "pocket".into(),
        track_id: "00ff".into(),
        model: ModelKind::Arcade,
        car: "hatch".into(),
        car_id: "c".into(),
        time,
        ticks: (time * 120.0) as u64,
        hz: 120,
        splits: vec![600, 1200],
        medal: None,
        aided: false,
    }
}
