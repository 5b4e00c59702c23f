//! Input scripts (docs/DESIGN.md, "Input scripts"): controls held for a number
//! of physics ticks, in order. The game records a player's inputs in the
//! same format (`--record`), so a lap driven by hand can be replayed.
//!
//! Keys of a `[[hold]]`: `ticks` (required, 1 or more), `throttle` and
//! `brake` 0..1, `steer` and `strafe` -1..1, `handbrake`, `jump` and
//! `autostrafe` (true/false), `shift = "up" | "down"`,
//! `gearbox = "manual" | "auto"`, `respawn = true` (back to the last
//! mark passed) and `model = "tire"` (the physics model switched, with
//! its own car where it fits), each taking effect once, at the hold's
//! first tick. Keys left out are zero or false: a hold does not inherit
//! from the one before. `gearbox` and `model` are there because a
//! recording must be able to say when the player pressed c or m.

use serde::{Deserialize, Serialize};

use crate::base::diag::{self, Diagnostic, Diagnostics};
use crate::physics::{Controls, ModelKind, Shift};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Gearbox {
    Manual,
    Auto,
}

// serde's `skip_serializing_if` hands over a reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(v: &bool) -> bool {
    !*v
}

/// One `[[hold]]`: the keys of [`Controls`], one to one.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hold {
    pub ticks: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub throttle: f64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub brake: f64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub steer: f64,
    #[serde(default, skip_serializing_if = "is_false")]
    pub handbrake: bool,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub strafe: f64,
    #[serde(default, skip_serializing_if = "is_false")]
    pub jump: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub autostrafe: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shift: Option<Shift>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gearbox: Option<Gearbox>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub respawn: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelKind>,
}

/// A whole script.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    #[serde(default)]
    pub hold: Vec<Hold>,
}

/// The most ticks one script may hold: about 414 days at 120 Hz.
pub const MAX_TICKS: u64 = 1 << 32;

impl Hold {
    /// The controls of this hold's `k`-th tick (one-shot keys at k = 0).
    pub fn controls(&self, k: u64) -> Controls {
        let first = k == 0;
        Controls {
            throttle: self.throttle,
            brake: self.brake,
            steer: self.steer,
            handbrake: self.handbrake,
            strafe: self.strafe,
            jump: self.jump,
            autostrafe: self.autostrafe,
            shift: self.shift.filter(|_| first),
            manual: self.gearbox.filter(|_| first).map(|g| g == Gearbox::Manual),
            respawn: self.respawn && first,
            model: self.model.filter(|_| first),
        }
    }

    /// One tick of `c`: the inverse of [`Hold::controls`].
    pub fn of(c: &Controls) -> Hold {
        Hold {
            ticks: 1,
            throttle: c.throttle,
            brake: c.brake,
            steer: c.steer,
            handbrake: c.handbrake,
            strafe: c.strafe,
            jump: c.jump,
            autostrafe: c.autostrafe,
            shift: c.shift,
            gearbox: c
                .manual
                .map(|m| if m { Gearbox::Manual } else { Gearbox::Auto }),
            respawn: c.respawn,
            model: c.model,
        }
    }
}

impl Script {
    /// Parses and validates a script; `path` names it in errors.
    pub fn parse(path: &str, text: &str) -> Result<Script, Diagnostics> {
        let script: Script =
            toml::from_str(text).map_err(|e| vec![diag::from_toml(path, text, 1, &e)])?;
        let mut problems: Vec<(String, String)> = Vec::new();
        let mut total: u64 = 0;
        for (i, h) in script.hold.iter().enumerate() {
            if problems.len() > diag::MAX_ERRORS {
                break;
            }
            let mut bad = |key: &str, msg: String| problems.push((format!("hold.{i}.{key}"), msg));
            if h.ticks == 0 {
                bad("ticks", "ticks must be at least 1".into());
            }
            total = total.saturating_add(h.ticks);
            for (key, v, min) in [
                ("throttle", h.throttle, 0.0),
                ("brake", h.brake, 0.0),
                ("steer", h.steer, -1.0),
                ("strafe", h.strafe, -1.0),
            ] {
                if !(min..=1.0).contains(&v) {
                    bad(
                        key,
                        format!("{key} = {} is out of range: {min} to 1", diag::number(v)),
                    );
                }
            }
        }
        let mut errors = diag::at_keys(path, text, problems);
        if total > MAX_TICKS {
            errors.push(Diagnostic::file(
                path,
                format!("the script holds more than {MAX_TICKS} ticks"),
            ));
        }
        if script.hold.is_empty() && errors.is_empty() {
            errors.push(Diagnostic::at(
                path,
                diag::Pos::new(1, 1),
                "no [[hold]] in the script",
            ));
        }
        if errors.is_empty() {
            Ok(script)
        } else {
            Err(errors.into())
        }
    }

    pub fn total_ticks(&self) -> u64 {
        self.hold.iter().map(|h| h.ticks).sum()
    }

    /// The controls of every tick, in order.
    pub fn controls(&self) -> impl Iterator<Item = Controls> + '_ {
        self.hold
            .iter()
            .flat_map(|h| (0..h.ticks).map(move |k| h.controls(k)))
    }

    /// [`Script::controls`], owning the script: a tick at a time, never
    /// the whole run in memory (a script may hold 2^32 ticks).
    pub fn into_controls(self) -> impl Iterator<Item = Controls> {
        self.hold
            .into_iter()
            .flat_map(|h| (0..h.ticks).map(move |k| h.controls(k)))
    }

    /// Appends one tick of `c`, lengthening the last hold when it asks the
    /// same (one-shot keys always start a hold of their own).
    pub fn push(&mut self, c: &Controls) {
        let mut tick = Hold::of(c);
        let one_shot =
            tick.shift.is_some() || tick.gearbox.is_some() || tick.respawn || tick.model.is_some();
        // Every seat records every tick: compared as the last hold, not
        // copied to compare.
        match self.hold.last_mut() {
            Some(last)
                if !one_shot && {
                    tick.ticks = last.ticks;
                    tick == *last
                } =>
            {
                last.ticks += 1;
            }
            _ => {
                tick.ticks = 1;
                self.hold.push(tick);
            }
        }
    }

    /// The script as TOML that parses back equal.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a script always serialises")
    }
}

/// How a recording's first line begins: then what the race was
/// ([`crate::race::Setup::about`]), which `skid play --replay` checks.
const RECORDED_AS: &str = "# recorded by skid: ";

/// What race a recording's first line says it was, if it says.
pub fn recorded_as(text: &str) -> Option<&str> {
    text.lines().next()?.strip_prefix(RECORDED_AS)
}

/// Writes a race's inputs to a file as the race goes (`--record`): each
/// hold is appended once it is complete (the last one may still grow), so
/// a crash loses at most the hold in progress, and what is on disk is a
/// valid script as soon as one hold is complete. A new race starts the
/// file over.
pub struct Recorder {
    file: std::fs::File,
    /// Holds of the current race already in the file.
    written: usize,
    /// Which race they belong to.
    race: u64,
}

impl Recorder {
    /// Creates (or empties) the file at `path` now, so that a path that
    /// cannot be written fails before the game starts.
    pub fn create(path: &str) -> std::io::Result<Recorder> {
        Ok(Recorder {
            file: std::fs::File::create(path)?,
            written: 0,
            race: 0,
        })
    }

    /// Appends the complete holds of race number `race`'s `script` not yet
    /// written; with `all`, the last hold too (the race is over). A file
    /// started over begins with `about` as a comment: what the race was
    /// (track, model, car, laps, rate, rivals), which a replay must be.
    pub fn sync(
        &mut self,
        script: &Script,
        race: u64,
        all: bool,
        about: impl FnOnce() -> String,
    ) -> std::io::Result<()> {
        use std::io::{Seek, Write};
        if race != self.race || script.hold.len() < self.written {
            self.file.set_len(0)?;
            self.file.rewind()?;
            self.written = 0;
            self.race = race;
            writeln!(self.file, "{RECORDED_AS}{}", about())?;
        }
        let done = if all {
            script.hold.len()
        } else {
            script.hold.len().saturating_sub(1)
        };
        if done <= self.written {
            return Ok(());
        }
        let fresh = Script {
            hold: script.hold[self.written..done].to_vec(),
        };
        self.file.write_all(fresh.to_toml().as_bytes())?;
        self.written = done;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_of_bad_holds_report_fifty_errors_and_stop() {
        // 16,000 holds out of range: this once took minutes (the file was
        // parsed again for every error's position).
        let text = "[[hold]]\nticks = 1\nthrottle = 2.0\n".repeat(16_000);
        let errors = Script::parse("bad.toml", &text).unwrap_err();
        assert_eq!(errors.len(), diag::MAX_ERRORS + 1);
        assert_eq!(
            errors[0].to_string(),
            "bad.toml:3:12: throttle = 2 is out of range: 0 to 1"
        );
        assert_eq!(
            errors[49].to_string(),
            "bad.toml:150:12: throttle = 2 is out of range: 0 to 1"
        );
        assert_eq!(
            errors[50].to_string(),
            "bad.toml:153:12: too many errors; stopping here"
        );
    }

    #[test]
    fn a_recording_on_disk_is_a_valid_script_once_a_hold_is_complete() {
        let dir = std::env::temp_dir().join(format!("skid-recorder-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rec.toml");
        let p = path.to_str().unwrap();
        let mut rec = Recorder::create(p).unwrap();
        let mut script = Script::default();
        let read = || Script::parse(p, &std::fs::read_to_string(p).unwrap()).unwrap();
        let gas = Controls {
            throttle: 1.0,
            ..Controls::default()
        };
        for _ in 0..10 {
            script.push(&gas);
        }
        rec.sync(&script, 1, false, || "pocket, arcade".into())
            .unwrap();
        let text = std::fs::read_to_string(p).unwrap();
        assert_eq!(
            text, "# recorded by skid: pocket, arcade\n",
            "what the race was; the hold in progress is not written"
        );
        script.push(&Controls::default());
        rec.sync(&script, 1, false, || "a test".into()).unwrap();
        assert_eq!(read().total_ticks(), 10, "the complete hold is");
        rec.sync(&script, 1, true, || "a test".into()).unwrap();
        assert_eq!(read(), script, "all of it when the race is over");
        // A new race starts the file over.
        let mut next = Script::default();
        next.push(&gas);
        rec.sync(&next, 2, true, || "oval, tire".into()).unwrap();
        assert_eq!(read(), next);
        let text = std::fs::read_to_string(p).unwrap();
        assert!(
            text.starts_with("# recorded by skid: oval, tire\n"),
            "{text}"
        );
        assert_eq!(recorded_as(&text), Some("oval, tire"));
        assert_eq!(recorded_as("# a comment\n[[hold]]\n"), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn errors(text: &str) -> Vec<String> {
        Script::parse("s.toml", text)
            .unwrap_err()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn holds_expand_to_ticks_with_one_shot_keys_first() {
        let s = Script::parse(
            "s.toml",
            "[[hold]]\nticks = 2\nthrottle = 1.0\nshift = \"up\"\n[[hold]]\nticks = 1\nsteer = -0.5\n",
        )
        .unwrap();
        let c: Vec<Controls> = s.controls().collect();
        assert_eq!(c.len(), 3);
        assert_eq!((c[0].throttle, c[0].shift), (1.0, Some(Shift::Up)));
        assert_eq!((c[1].throttle, c[1].shift), (1.0, None));
        assert_eq!(
            (c[2].throttle, c[2].steer),
            (0.0, -0.5),
            "nothing inherited"
        );
    }

    #[test]
    fn bad_values_are_positioned() {
        assert_eq!(
            errors("[[hold]]\nticks = 5\nsteer = 1.5\n"),
            ["s.toml:3:9: steer = 1.5 is out of range: -1 to 1"]
        );
        assert_eq!(
            errors("[[hold]]\nticks = 5\n[[hold]]\nticks = 1\nthrottle = nan\n"),
            ["s.toml:5:12: throttle = NaN is out of range: 0 to 1"]
        );
        assert_eq!(
            errors("[[hold]]\nticks = 0\n"),
            ["s.toml:2:9: ticks must be at least 1"]
        );
        assert!(
            errors("[[hold]]\nticks = 5\nnitro = true\n")[0]
                .starts_with("s.toml:3:1: unknown field `nitro`")
        );
        assert!(errors("[[hold]]\nticks = -5\n")[0].starts_with("s.toml:2:9: "));
        assert!(
            errors("[[hold]]\nticks = 1\nshift = \"sideways\"\n")[0].starts_with("s.toml:3:9: ")
        );
        assert!(errors("[[hold]\nticks = 1\n")[0].starts_with("s.toml:1:"));
        assert_eq!(errors(""), ["s.toml:1:1: no [[hold]] in the script"]);
    }

    #[test]
    fn a_script_round_trips_through_toml() {
        let s = Script {
            hold: vec![
                Hold {
                    ticks: 3,
                    throttle: 0.5,
                    shift: Some(Shift::Down),
                    ..Hold::default()
                },
                Hold {
                    ticks: 7,
                    steer: -1.0,
                    handbrake: true,
                    gearbox: Some(Gearbox::Auto),
                    ..Hold::default()
                },
            ],
        };
        assert_eq!(Script::parse("r.toml", &s.to_toml()).unwrap(), s);
    }
}
