//! What every layer stands on and that knows nothing of racing: the
//! physics' trigonometry, files read and written safely, positioned
//! diagnostics, threads, signals and the fixed-step clock.

pub mod clock;
pub mod diag;
pub mod files;
pub mod signals;
pub mod threads;
pub mod trig;
