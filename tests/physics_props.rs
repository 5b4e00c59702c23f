//! Ten simulated minutes of random controls, for every model on every
//! bundled track: the state stays finite and the car never ends a step
//! inside a wall.

use proptest::prelude::*;
use skid::car::CarSpec;
use skid::physics::{Controls, ModelKind, Shift};
use skid::sim::Sim;
use skid::track::bundled;

const TEN_MINUTES: u64 = 10 * 60 * 120;

fn controls() -> impl Strategy<Value = (u64, Controls)> {
    (
        1..360u64,
        (0.0..=1.0f64, 0.0..=1.0f64, -1.0..=1.0f64, -1.0..=1.0f64),
        (any::<bool>(), any::<bool>(), any::<bool>()),
        prop_oneof![4 => Just(None), 1 => Just(Some(Shift::Up)), 1 => Just(Some(Shift::Down))],
        prop_oneof![6 => Just(None), 1 => any::<bool>().prop_map(Some)],
    )
        .prop_map(
            |(
                ticks,
                (throttle, brake, steer, strafe),
                (handbrake, jump, autostrafe),
                shift,
                manual,
            )| {
                (
                    ticks,
                    Controls {
                        throttle,
                        brake,
                        steer,
                        handbrake,
                        strafe,
                        jump,
                        autostrafe,
                        shift,
                        manual,
                    },
                )
            },
        )
}

fn finite(sim: &Sim) -> bool {
    let s = &sim.car.state;
    let (b, t) = (&s.body, sim.car.telemetry());
    [
        b.pos.x,
        b.pos.y,
        b.vel.x,
        b.vel.y,
        b.heading,
        b.yaw_rate,
        s.steer,
        t.speed,
        t.rpm,
        t.slip_front,
        t.slip_rear,
    ]
    .iter()
    .all(|v| v.is_finite())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3, ..ProptestConfig::default() })]

    #[test]
    fn random_driving_stays_finite_and_out_of_walls(holds in prop::collection::vec(controls(), 1..40)) {
        for (name, _) in bundled::TRACKS {
            for kind in ModelKind::ALL {
                let track = bundled::load(name).unwrap();
                let mut sim = Sim::new(track, CarSpec::default_for(kind), kind, 120);
                let script = holds.iter().cycle().flat_map(|(n, c)| {
                    // One-shot keys on a hold's first tick only, as in scripts.
                    let rest = Controls { shift: None, manual: None, ..*c };
                    std::iter::once(*c).chain(std::iter::repeat_n(rest, *n as usize - 1))
                });
                for c in script.take(TEN_MINUTES as usize) {
                    sim.step(&c);
                    prop_assert!(finite(&sim), "{name}/{kind} at tick {}: {:?}", sim.tick, sim.car.state);
                    prop_assert!(
                        !sim.track.box_hits_wall(&sim.car.footprint()),
                        "{name}/{kind} in a wall at tick {}: {:?}", sim.tick, sim.car.state.body
                    );
                }
            }
        }
    }
}
