//! `skid generate`: a track made from a seed, to standard output or a
//! file. Without `--seed`, a seed is drawn from the time; the file's
//! first line says which, so the track can be made again.

use std::io::Write as _;
use std::path::Path;

use crate::base::diag::{Diagnostic, Diagnostics};
use crate::base::files;
use crate::track::generate::{self, Size};

use super::{Outcome, args};

/// `skid generate` as asked: a day's track, or a seed's.
pub fn asked(g: args::Generate) -> Outcome {
    match g.daily {
        Some(day) => daily(&super::daily_track(&day), g.out.as_deref()),
        None => generate(g.seed, &g.size, g.out.as_deref()),
    }
}

/// Prints (or writes to `out`) the track for `seed` (else one from the
/// clock) and `size`.
pub fn generate(seed: Option<u64>, size: &str, out: Option<&str>) -> Outcome {
    let size: Size = size
        .parse()
        .map_err(|e: String| Diagnostics::from(Diagnostic::file("--size", e)))?;
    let seed = seed.unwrap_or_else(seed_from_clock);
    write(&generate::generate(seed, size), out)
}

/// Prints (or writes to `out`) the Track of the Day `name` names
/// (`daily`, `daily:YYYY-MM-DD`).
pub fn daily(name: &str, out: Option<&str>) -> Outcome {
    let day = match super::load::daily_day(name) {
        Some(Ok(day)) => day,
        Some(Err(why)) => return Err(Diagnostic::file(name, why).into()),
        None => return Err(Diagnostic::file(name, "not a day").into()),
    };
    write(&generate::daily(day), out)
}

fn write(made: &generate::Generated, out: Option<&str>) -> Outcome {
    match out {
        None => {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.write_all(made.text.as_bytes());
            Ok(())
        }
        Some(path) => files::write_atomic(Path::new(path), made.text.as_bytes(), || Ok(()))
            .map(|()| eprintln!("{path}: {}", made.name))
            .map_err(|e| Diagnostics::from(Diagnostic::file(path, e.to_string()))),
    }
}

/// A seed from the time, for a track nobody asked for by seed.
fn seed_from_clock() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(0, |d| d.as_nanos() as u64) % 1_000_000_000
}
