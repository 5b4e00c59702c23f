//! The laws each physics model must obey, each checked against the numbers
//! of the seed its module's doc comment names.

mod common;

use common::{arena, car_on, moving, steer, throttle};
use glam::DVec2;
use skid::physics::car::CarSpec;
use skid::physics::drivetrain::Drivetrain;
use skid::physics::strafe::{self, UNITS};
use skid::physics::{Car, Controls, ModelKind};

const DT: f64 = 1.0 / 120.0;

// ---------------------------------------------------------------- arcade

#[test]
fn arcade_friction_never_reverses_the_car() {
    let t = arena('.', 400, 20);
    let mut car = car_on(&t, ModelKind::Arcade);
    // Sliding forward and sideways at once, no input: both parts die out
    // without ever changing sign.
    car.state.body.vel = DVec2::new(20.0, 6.0);
    let mut last = car.state.body.vel;
    for _ in 0..(30 * 120) {
        car.step(&Controls::default(), &t, DT);
        let v = car.state.body.vel;
        assert!(v.x >= 0.0 && v.y >= 0.0, "reversed: {v:?}");
        assert!(v.length() <= last.length() + 1e-12, "friction added speed");
        last = v;
    }
    assert!(last.length() < 1e-9, "came to rest: {last:?}");
}

#[test]
fn arcade_does_not_turn_at_a_standstill() {
    let t = arena('.', 100, 20);
    let mut car = car_on(&t, ModelKind::Arcade);
    let h0 = car.state.body.heading;
    for _ in 0..240 {
        car.step(&steer(1.0), &t, DT);
    }
    assert_eq!(car.state.body.heading, h0);
    assert_eq!(car.state.body.pos, t.start_pose(0).0);
}

#[test]
fn arcade_steering_eases_towards_the_input() {
    let t = arena('.', 400, 40);
    let mut car = moving(&t, ModelKind::Arcade, 25.0);
    let mut rates = Vec::new();
    for _ in 0..60 {
        car.step(
            &Controls {
                steer: 1.0,
                throttle: 0.5,
                ..Controls::default()
            },
            &t,
            DT,
        );
        rates.push(car.state.body.yaw_rate);
    }
    let settled = rates[59];
    assert!(settled > 0.5, "turning right: {settled}");
    assert!(
        rates[0] < 0.1 * settled,
        "no snap on the first step: {} vs {settled}",
        rates[0]
    );
    assert!(
        rates.windows(2).take(20).all(|w| w[1] > w[0]),
        "the turn builds up step by step"
    );
}

// ---------------------------------------------------------------- dynamic

/// Full throttle on a 7 km straight: (time to 100 km/h, top speed km/h),
/// checking the drivetrain's laws on the way.
fn corvette_run() -> (f64, f64) {
    let t = arena('.', 3500, 5);
    let mut car = car_on(&t, ModelKind::Dynamic);
    let e = car.spec().engine.clone();
    let mut to_100 = None;
    let mut top: f64 = 0.0;
    for i in 1..=(90 * 120) {
        let before = car.state.drive.clone();
        car.step(&throttle(1.0), &t, DT);
        let d = &car.state.drive;
        assert!(d.rpm <= e.redline_rpm, "rpm {} passed the redline", d.rpm);
        if d.gear != before.gear {
            // Upshift at the redline; the new rpm is the old scaled by the
            // ratios (before the engine drags it down a fraction).
            assert_eq!(d.gear, before.gear + 1, "only upshifts under full throttle");
            let v = car.state.body.v_long();
            let old = before.ratio(&e);
            let new = d.ratio(&e);
            let at_shift = v / e.wheel_radius * old * e.differential * 60.0 / std::f64::consts::TAU;
            assert!(
                at_shift >= e.redline_rpm * 0.999,
                "shifted at {at_shift} rpm"
            );
            assert!(
                (d.rpm - at_shift * new / old).abs() < 1.0,
                "{} vs {}",
                d.rpm,
                at_shift * new / old
            );
        }
        let kmh = car.telemetry().speed * 3.6;
        if kmh >= 100.0 && to_100.is_none() {
            to_100 = Some(f64::from(i) * DT);
        }
        top = top.max(kmh);
    }
    (to_100.expect("reached 100 km/h"), top)
}

#[test]
fn corvette_c5_accelerates_and_tops_out_like_the_real_car() {
    let (to_100, top) = corvette_run();
    assert!((4.5..=6.5).contains(&to_100), "0-100 km/h in {to_100:.2} s");
    assert!((220.0..=290.0).contains(&top), "top speed {top:.1} km/h");
}

#[test]
fn dynamic_downshifts_when_speed_drops_below_the_lower_gears_top() {
    let t = arena('.', 3500, 5);
    let mut car = car_on(&t, ModelKind::Dynamic);
    let e = car.spec().engine.clone();
    for _ in 0..(20 * 120) {
        car.step(&throttle(1.0), &t, DT);
    }
    assert!(car.state.drive.gear >= 4);
    let brake = Controls {
        brake: 0.5,
        ..Controls::default()
    };
    let mut downshifts = 0;
    while car.state.body.v_long() > 1.0 {
        let g = car.state.drive.gear;
        car.step(&brake, &t, DT);
        if car.state.drive.gear < g {
            downshifts += 1;
            let lower_top = Drivetrain::top_speed(&e, g as usize - 1);
            assert!(car.state.body.v_long() < lower_top * 0.95 + 1e-9);
            assert!(
                car.state.body.v_long() > lower_top * 0.95 - 0.5,
                "not late either"
            );
        }
    }
    assert!(downshifts >= 3);
    assert_eq!(car.state.drive.gear, 1);
}

#[test]
fn dynamic_wheelspin_when_traction_exceeds_mu_times_load() {
    let spin_at_launch = |surface: char| {
        let t = arena(surface, 400, 5);
        let mut car = car_on(&t, ModelKind::Dynamic);
        car.step(&throttle(1.0), &t, DT);
        car.step(&throttle(1.0), &t, DT);
        let s = car.telemetry();
        let a = car.state.body.v_long() / (2.0 * DT);
        (s.sliding[2] && s.sliding[3], a)
    };
    let spec = CarSpec::default_for(ModelKind::Dynamic);
    // On ice (grip 0.12), first gear's 7,300 N is far above mu * grip * W_r.
    let (spins, a) = spin_at_launch('~');
    assert!(spins, "the rear wheels spin on ice");
    let rear_share = spec.body.cg_to_front / spec.body.wheelbase;
    assert!(
        a < spec.dynamic.mu * 0.12 * 9.81 * rear_share * 1.2,
        "ice limits the push: {a}"
    );
    // Half throttle on asphalt stays below the rear tires' grip.
    let t = arena('.', 400, 5);
    let mut car = car_on(&t, ModelKind::Dynamic);
    car.step(&throttle(0.5), &t, DT);
    assert!(
        !car.telemetry().sliding[2],
        "no wheelspin on asphalt at half throttle"
    );
}

// ---------------------------------------------------------------- strafe

fn quake() -> CarSpec {
    CarSpec::default_for(ModelKind::Strafe)
}

/// |v'|² - |v|² in u²/s² for one air step from `v` towards `wishdir`.
fn air_gain(v: DVec2, wishdir: DVec2, hz: f64) -> f64 {
    let p = quake().strafe;
    let v2 = strafe::air_accelerate(
        v,
        wishdir,
        p.maxspeed,
        p.airaccelerate,
        p.air_wishspeed,
        1.0 / hz,
    );
    v2.length_squared() - v.length_squared()
}

#[test]
fn strafe_best_air_gain_matches_the_exact_formula() {
    let p = quake().strafe;
    for speed in [400.0, 800.0, 1500.0] {
        let v = DVec2::new(speed, 0.0);
        for hz in [77.0, 120.0] {
            let a: f64 = p.airaccelerate * p.maxspeed / hz;
            let exact = if a >= 30.0 { 900.0 } else { a * (60.0 - a) };
            let d = strafe::best_air_wishdir(v, p.maxspeed, &p, 1.0 / hz, 1.0);
            let gain = air_gain(v, d, hz);
            assert!(
                (gain - exact).abs() < 1e-6,
                "{hz} Hz at {speed}: {gain} vs {exact}"
            );
            // No other direction does better.
            for k in 0..360 {
                let other = DVec2::from_angle(f64::from(k).to_radians());
                assert!(air_gain(v, other, hz) <= gain + 1e-6);
            }
        }
    }
}

#[test]
fn strafe_the_seeds_direction_gives_675_at_77_hz() {
    for speed in [400.0, 800.0, 1500.0] {
        let v = DVec2::new(speed, 0.0);
        let cos: f64 = 15.0 / speed;
        let d = DVec2::new(cos, (1.0 - cos * cos).sqrt());
        let gain = air_gain(v, d, 77.0);
        assert!((gain - 675.0).abs() < 1e-6, "{gain}");
    }
}

#[test]
fn strafe_autostrafe_hops_gain_speed_and_never_touch_friction() {
    let t = arena('.', 4000, 60);
    let mut car = car_on(&t, ModelKind::Strafe);
    car.state.body.vel = DVec2::new(320.0 / UNITS, 0.0);
    let hop = Controls {
        jump: true,
        autostrafe: true,
        ..Controls::default()
    };
    let mut ground_speeds = Vec::new();
    for _ in 0..(10 * 120) {
        let before = car.state.body.vel.length();
        car.step(&hop, &t, DT);
        let after = car.state.body.vel.length();
        assert!(after >= before - 1e-12, "lost speed: friction was applied");
        ground_speeds.push(after);
    }
    let v = car.state.body.vel.length() * UNITS;
    // v² grows by A (60 - A) = 888.9 u²/s² a step at 120 Hz: after 1200
    // steps from 320, sqrt(320² + 1200 * 888.9) = 1081 u/s, walls allowing.
    assert!(v > 900.0, "hopping built speed: {v} u/s");
}

#[test]
fn strafe_no_friction_in_the_air() {
    let t = arena('.', 400, 40);
    let mut car = car_on(&t, ModelKind::Strafe);
    car.state.body.vel = DVec2::new(10.0, 0.0);
    car.step(
        &Controls {
            jump: true,
            ..Controls::default()
        },
        &t,
        DT,
    );
    let v0 = car.state.body.vel;
    // Airborne for 2 * 270 / 800 = 0.675 s: 80 steps.
    for _ in 0..70 {
        car.step(&Controls::default(), &t, DT);
        assert_eq!(car.state.body.vel, v0);
    }
}

#[test]
fn strafe_ground_friction_stops_a_running_player_in_about_054_s_at_72_hz() {
    let p = quake().strafe;
    let mut v = 320.0;
    let mut steps = 0;
    while v > 0.0 {
        v = strafe::friction(v, &p, 1.0, 1.0 / 72.0);
        steps += 1;
    }
    let t = f64::from(steps) / 72.0;
    assert!((0.52..=0.56).contains(&t), "stopped in {t:.3} s");
    // The whole car on asphalt (whose rolling resistance adds a little).
    let track = arena('.', 200, 40);
    let mut car = car_on(&track, ModelKind::Strafe);
    car.state.body.vel = DVec2::new(10.0, 0.0);
    let mut steps = 0;
    while car.state.body.vel.length() > 0.0 {
        car.step(&Controls::default(), &track, 1.0 / 72.0);
        steps += 1;
    }
    let t = f64::from(steps) / 72.0;
    assert!((0.48..=0.56).contains(&t), "stopped in {t:.3} s");
}

// ---------------------------------------------------------------- kinematic

/// Path curvature of the rear axle at a steady steer and speed.
fn kinematic_curvature(speed: f64, input: f64) -> (f64, Car) {
    let t = arena('.', 600, 120);
    let mut car = moving(&t, ModelKind::Kinematic, speed);
    let c = car.spec().cg_to_rear();
    // Let the wheels turn to the angle (no pedals: speed hardly changes).
    for _ in 0..60 {
        car.step(&steer(input), &t, DT);
    }
    let rear = |car: &Car| car.state.body.pos - car.state.body.forward() * c;
    let (r0, h0) = (rear(&car), car.state.body.heading);
    car.step(&steer(input), &t, DT);
    let ds = (rear(&car) - r0).length();
    let dh = car.state.body.heading - h0;
    (dh / ds, car)
}

#[test]
fn kinematic_curvature_depends_only_on_the_steering_angle() {
    let spec = CarSpec::default_for(ModelKind::Kinematic);
    let expected = (0.5 * spec.body.max_steer_deg.to_radians()).tan() / spec.body.wheelbase;
    for speed in [2.0, 8.0, 16.0] {
        let (k, _) = kinematic_curvature(speed, 0.5);
        assert!(
            (k / expected - 1.0).abs() < 0.01,
            "at {speed} m/s: {k} vs {expected}"
        );
    }
}

#[test]
fn kinematic_has_zero_slip() {
    // Each axle moves where its wheels point: over a step on an arc, the
    // chord of the rear axle runs along the mid-step heading, and the front
    // axle's along the mid-step heading plus the wheel angle.
    let (_, mut car) = kinematic_curvature(10.0, 0.8);
    let t = arena('.', 600, 120);
    let (b, c) = (car.spec().body.cg_to_front, car.spec().cg_to_rear());
    for _ in 0..30 {
        let body = car.state.body;
        car.step(&steer(0.8), &t, DT);
        let after = car.state.body;
        let mid = body.heading + 0.5 * (after.heading - body.heading);
        let rear = (after.pos - after.forward() * c) - (body.pos - body.forward() * c);
        let front = (after.pos + after.forward() * b) - (body.pos + body.forward() * b);
        let along = |d: DVec2, angle: f64| DVec2::from_angle(angle).perp().dot(d.normalize()).abs();
        assert!(along(rear, mid) < 1e-9, "rear slides: {}", along(rear, mid));
        assert!(along(front, mid + car.state.steer) < 1e-9, "front slides");
        assert_eq!(
            (car.telemetry().slip_front, car.telemetry().slip_rear),
            (0.0, 0.0)
        );
        assert_eq!(car.telemetry().sliding, [false; 4]);
    }
}

// ---------------------------------------------------------------- tire

/// Full lock from a given speed for a second: (front and rear slip
/// degrees at the end, whether any tire slid in the last half second, once
/// the wheels have reached the lock).
fn tire_at_full_lock(surface: char, speed: f64) -> (f64, f64, bool) {
    let t = arena(surface, 600, 120);
    let mut car = moving(&t, ModelKind::Tire, speed);
    let mut slid = false;
    for i in 0..120 {
        car.step(&steer(1.0), &t, DT);
        slid |= i >= 60 && car.telemetry().sliding.iter().any(|&s| s);
    }
    (
        car.telemetry().slip_front.abs(),
        car.telemetry().slip_rear.abs(),
        slid,
    )
}

#[test]
fn tire_saturates_and_slides_above_some_speed_at_full_lock() {
    let (_, _, slow) = tire_at_full_lock('.', 3.0);
    assert!(!slow, "at 3 m/s the tires hold");
    let (front, _, fast) = tire_at_full_lock('.', 25.0);
    assert!(fast, "at 25 m/s the lateral impulse saturates");
    assert!(front > 5.0, "and the front slips: {front} degrees");
}

#[test]
fn tire_lower_traction_gives_more_slip_and_slower_acceleration() {
    let (asphalt_f, asphalt_r, _) = tire_at_full_lock('.', 12.0);
    let (ice_f, ice_r, _) = tire_at_full_lock('~', 12.0);
    assert!(
        ice_f + ice_r > asphalt_f + asphalt_r + 5.0,
        "ice {ice_f}/{ice_r} vs asphalt {asphalt_f}/{asphalt_r}"
    );
    let time_to_10 = |surface: char| {
        let t = arena(surface, 600, 20);
        let mut car = car_on(&t, ModelKind::Tire);
        let mut steps = 0;
        while car.telemetry().speed < 10.0 {
            car.step(&throttle(1.0), &t, DT);
            steps += 1;
            assert!(steps < 120 * 60);
        }
        steps
    };
    assert!(time_to_10('~') > 2 * time_to_10('.'));
}

// ---------------------------------------------------------------- all

#[test]
fn switching_models_keeps_position_heading_and_velocity() {
    let t = arena('.', 400, 40);
    let mut car = moving(&t, ModelKind::Arcade, 15.0);
    for _ in 0..30 {
        car.step(
            &Controls {
                steer: 0.4,
                throttle: 1.0,
                ..Controls::default()
            },
            &t,
            DT,
        );
    }
    let body = car.state.body;
    car.switch_model(ModelKind::Tire);
    assert_eq!(car.state.body, body);
    car.step(&Controls::default(), &t, DT);
    assert!(
        (car.state.body.vel - body.vel).length() < 1.0,
        "no jolt: {:?} vs {:?}",
        car.state.body.vel,
        body.vel
    );
}

/// The car carries its forward vector from step to step; a heading set
/// from outside (a restart, a test) must still be the one it drives along.
#[test]
fn a_heading_set_from_outside_is_the_one_driven_along() {
    let t = arena('.', 400, 40);
    for kind in ModelKind::ALL {
        let mut car = car_on(&t, kind);
        let go = Controls {
            throttle: 1.0,
            ..Controls::default()
        };
        for _ in 0..10 {
            car.step(&go, &t, DT);
        }
        car.state.body.vel = DVec2::ZERO;
        car.state.body.heading = std::f64::consts::FRAC_PI_2;
        for _ in 0..60 {
            car.step(&go, &t, DT);
        }
        let v = car.state.body.vel;
        assert!(
            v.y > 1.0 && v.x.abs() < 0.01 * v.y,
            "{kind}: drives south along +y: {v:?}"
        );
    }
}

/// A car reuses its last ground lookup while it stays well inside it; a
/// car moved from outside, or put on another track, must see the ground
/// where it is now.
#[test]
fn the_ground_under_the_wheels_follows_the_car_and_the_track() {
    let (tarmac, grass) = (arena('.', 60, 20), arena(',', 60, 20));
    let mut car = car_on(&tarmac, ModelKind::Arcade);
    car.step(&Controls::default(), &tarmac, DT);
    assert_eq!(car.telemetry().wheel_surface, [0; 4]);
    car.step(&Controls::default(), &grass, DT);
    assert_eq!(car.telemetry().wheel_surface, [1; 4], "another track");

    // A long strip of asphalt whose east half is grass.
    let mut map = "#".repeat(400) + "\n";
    for r in 1..9 {
        let row: String = (0..400)
            .map(|c| match (r, c) {
                (_, 0 | 399) => '#',
                (4, 5) => '>',
                (_, 3) => '|',
                (_, c) if c >= 200 => ',',
                _ => '.',
            })
            .collect();
        map.push_str(&row);
        map.push('\n');
    }
    map.push_str(&"#".repeat(400));
    let half = skid::track::parse("half", map.as_bytes()).unwrap();
    let mut car = car_on(&half, ModelKind::Arcade);
    car.step(&Controls::default(), &half, DT);
    assert_eq!(car.telemetry().wheel_surface, [0; 4]);
    car.state.body.pos.x = half.cell_size().x * 300.0;
    car.step(&Controls::default(), &half, DT);
    assert_eq!(
        car.telemetry().wheel_surface,
        [1; 4],
        "moved onto the grass"
    );
}
