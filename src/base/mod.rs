//! What every layer stands on and that knows nothing of racing: the
//! physics' trigonometry, files read and written safely, positioned
//! diagnostics, threads, signals, the fixed-step clock and the day.

pub mod clock;
pub mod day;
pub mod diag;
pub mod files;
pub mod signals;
pub mod threads;
pub mod trig;
