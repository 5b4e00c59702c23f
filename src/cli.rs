//! The command line (DESIGN.md, "Command line"), built with clap.
//!
//! Each command returns `Err(diagnostics)` for bad input: `main` prints them
//! one per line on stderr and exits with status 2. Status 1 is left to bugs.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::diag::{self, Diagnostic};
use crate::track::{self, Track, bundled};

#[derive(Parser, Debug)]
#[command(
    name = "skid",
    version,
    about = "A top-down racing game for the terminal"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the bundled tracks: name, size, laps and surfaces.
    Tracks,
    /// Validate track files: `ok` for each valid file, its errors otherwise.
    Check {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
}

type Outcome = Result<(), Vec<Diagnostic>>;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let outcome = match cli.command {
        None => {
            eprintln!(
                "skid: the game itself is not built yet; try `skid tracks` or `skid check FILE`"
            );
            Ok(())
        }
        Some(Command::Tracks) => tracks(),
        Some(Command::Check { files }) => check(&files),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(errors) => {
            let mut err = std::io::stderr().lock();
            for e in errors {
                let _ = writeln!(err, "{e}");
            }
            ExitCode::from(2)
        }
    }
}

/// A track named on the command line: an existing file, else a bundled
/// track of that name.
pub fn load_track(arg: &str) -> Result<Track, Vec<Diagnostic>> {
    if std::path::Path::new(arg).is_file() {
        let bytes = diag::read_file(arg).map_err(|d| vec![d])?;
        return track::parse(arg, &bytes);
    }
    bundled::load(arg).ok_or_else(|| {
        let names: Vec<&str> = bundled::TRACKS.iter().map(|(n, _)| *n).collect();
        vec![Diagnostic::file(
            arg,
            format!(
                "no such file, nor a bundled track (bundled: {})",
                names.join(", ")
            ),
        )]
    })
}

fn tracks() -> Outcome {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{:<10} {:<12} {:<14} {:>4}  surfaces",
        "name", "cells", "metres", "laps"
    );
    for (name, _) in bundled::TRACKS {
        let t = load_track(name)?;
        let m = t.size_m();
        let _ = writeln!(
            out,
            "{:<10} {:<12} {:<14} {:>4}  {}",
            name,
            format!("{}x{}", t.width, t.height),
            format!("{:.0}x{:.0}", m.x, m.y),
            t.laps,
            t.surfaces_used().join(", ")
        );
    }
    Ok(())
}

fn check(files: &[String]) -> Outcome {
    let mut all = Vec::new();
    let mut out = std::io::stdout().lock();
    for f in files {
        match diag::read_file(f)
            .map_err(|d| vec![d])
            .and_then(|b| track::parse(f, &b))
        {
            Ok(_) => {
                let _ = writeln!(out, "{f}: ok");
            }
            Err(errors) => all.extend(errors),
        }
    }
    if all.is_empty() { Ok(()) } else { Err(all) }
}
