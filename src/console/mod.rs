//! A player's screen and keyboard, wherever they are: the events they
//! send, the size of their screen and where its frames go. The local
//! terminal is one [`Console`] (`term::Local`, the only code that touches
//! raw mode, signals and the process's tty); an SSH channel can be
//! another, as can a test's script of events and buffer of bytes.
//!
//! Frames are drawn into [`Frames`] through a [`SizedBackend`], which
//! knows the screen's size from its console and so never asks a terminal
//! anything (docs/TERMINAL.md: a terminal that answers nothing still gets
//! its first frame at once), into a [`FrameWriter`] that sends each frame
//! whole.

mod cells;
pub mod damage;
mod frames;

pub use frames::Frames;

use std::io::{self, BufWriter, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::Cell as ScreenCell;
use ratatui::crossterm::event::Event;
use ratatui::layout::{Position, Size};

/// What takes a terminal over for the game, as bytes: the alternate
/// screen, no cursor, focus events, the kitty keyboard flags and Windows
/// Terminal's win32-input-mode (releases reported, for the terminals that
/// can, either way; the others ignore both). Nothing in it asks the
/// terminal anything.
pub fn take_over() -> Vec<u8> {
    use ratatui::crossterm::cursor::Hide;
    use ratatui::crossterm::event::{
        EnableFocusChange, KeyboardEnhancementFlags, PushKeyboardEnhancementFlags,
    };
    use ratatui::crossterm::terminal::EnterAlternateScreen;
    let flags = KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES
        | KeyboardEnhancementFlags::REPORT_EVENT_TYPES
        | KeyboardEnhancementFlags::REPORT_ALL_KEYS_AS_ESCAPE_CODES;
    let mut out = Vec::new();
    // Writing into memory cannot fail.
    let _ = ratatui::crossterm::queue!(
        out,
        EnterAlternateScreen,
        Hide,
        EnableFocusChange,
        PushKeyboardEnhancementFlags(flags)
    );
    out.extend_from_slice(WIN32_INPUT_ON);
    out
}

/// Windows Terminal's win32-input-mode on (`crate::input::keyboard` reads it).
const WIN32_INPUT_ON: &[u8] = b"\x1b[?9001h";

/// What gives the terminal back, as bytes: colours and attributes reset
/// (frames leave theirs set), win32-input-mode off, the kitty flags
/// popped, focus events off, mouse reports off (the editor's), the cursor
/// shown, the main screen back. A terminal left in either keyboard mode,
/// or reporting the mouse, would type escape codes into the player's
/// shell.
pub const RESTORE: &[u8] =
    b"\x1b[0m\x1b[?9001l\x1b[<1u\x1b[?1004l\x1b[?1002l\x1b[?1006l\x1b[?25h\x1b[?1049l";

/// Mouse reports on (the editor's): presses, releases and moves with a
/// button down, in SGR's form (any column, no bytes past 127).
pub const MOUSE_ON: &[u8] = b"\x1b[?1002h\x1b[?1006h";

/// Mouse reports off again.
pub const MOUSE_OFF: &[u8] = b"\x1b[?1002l\x1b[?1006l";

/// Where a game's events come from and its frames go.
pub trait Console {
    /// Where the frames' bytes go.
    type Out: Write;

    /// The next event, waiting up to `timeout` for one; `None` if none
    /// came.
    fn next_event(&mut self, timeout: Duration) -> io::Result<Option<Event>>;

    /// The screen's size in cells (columns, rows), as it is now.
    fn size(&mut self) -> io::Result<Size>;

    /// Whether what is on the screen was lost (the local terminal back
    /// from a job-control stop) and everything must be drawn anew.
    fn redraw_wanted(&mut self) -> bool {
        false
    }

    /// The writer of the frames (asked once, when the game starts).
    fn output(&mut self) -> Self::Out;

    /// Asks the screen for mouse reports (`on`), or no more: they come as
    /// [`Event::Mouse`]. A console without a mouse ignores it.
    fn mouse(&mut self, on: bool) -> io::Result<()> {
        let _ = on;
        Ok(())
    }
}

/// A writer that keeps what it is given, shared with whoever takes it
/// ([`Sink::take`]): where the server's hub draws a player's frames, and
/// the tests' screens.
/// Shared across threads: the hub draws players' frames on every core.
#[derive(Clone, Default)]
pub struct Sink(Arc<Mutex<Vec<u8>>>);

impl Sink {
    /// Everything written since the last take.
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.bytes())
    }

    /// The bytes, even if a thread panicked while writing (a frame that
    /// failed is dropped with its player).
    fn bytes(&self) -> std::sync::MutexGuard<'_, Vec<u8>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What the game loop and its frame writer share.
#[derive(Debug, Default)]
pub struct Wire {
    bytes: AtomicU64,
    send: AtomicBool,
}

impl Wire {
    /// Bytes written to the screen so far.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }
}

/// The frame writer: one 64 KiB buffer that counts the bytes through it
/// and sends them only when a frame is complete. ratatui flushes its
/// backend at the end of a draw, before the frame's end-of-synchronized-
/// output marker; this writer waits for [`commit`].
pub struct FrameWriter<W: Write> {
    inner: BufWriter<W>,
    wire: Arc<Wire>,
}

impl<W: Write> FrameWriter<W> {
    pub fn new(inner: W) -> (Self, Arc<Wire>) {
        let wire = Arc::new(Wire::default());
        let w = FrameWriter {
            inner: BufWriter::with_capacity(1 << 16, inner),
            wire: wire.clone(),
        };
        (w, wire)
    }
}

impl<W: Write> Write for FrameWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.wire.bytes.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.wire.send.load(Ordering::Relaxed) {
            self.inner.flush()
        } else {
            Ok(())
        }
    }
}

/// Sends everything written to the backend so far.
pub fn commit<B: Write>(backend: &mut B, wire: &Wire) -> io::Result<()> {
    wire.send.store(true, Ordering::Relaxed);
    let sent = backend.flush();
    wire.send.store(false, Ordering::Relaxed);
    sent
}

/// ratatui's crossterm backend writing to any writer, with the screen's
/// size given to it ([`SizedBackend::set_size`]) rather than read from the
/// process's terminal, and the cursor's position remembered rather than
/// asked for (crossterm's answer waits up to 2 s on a terminal that does
/// not reply; an SSH channel has no terminal to ask). Cells go out through
/// [`cells`], in fewer bytes than crossterm's; the cursor is hidden once,
/// not in every frame.
pub struct SizedBackend<W: Write> {
    inner: CrosstermBackend<W>,
    size: Size,
    cursor: Position,
    pen: cells::Pen,
    hidden: bool,
}

impl<W: Write> SizedBackend<W> {
    pub fn new(out: W, size: Size) -> Self {
        SizedBackend {
            inner: CrosstermBackend::new(out),
            size,
            cursor: Position::ORIGIN,
            pen: cells::Pen::default(),
            hidden: false,
        }
    }

    /// The screen's new size: the next draw clears it and draws it whole.
    pub fn set_size(&mut self, size: Size) {
        self.size = size;
    }
}

impl<W: Write> Write for SizedBackend<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Write::flush(&mut self.inner)
    }
}

impl<W: Write> Backend for SizedBackend<W> {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a ScreenCell)>,
    {
        cells::draw(&mut self.inner, content, self.size.width, &mut self.pen)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        if self.hidden {
            return Ok(());
        }
        self.hidden = true;
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.hidden = false;
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        Ok(self.cursor)
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.cursor = position.into();
        self.inner.set_cursor_position(self.cursor)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.clear_region(ClearType::All)
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        // A clear fills with the current background: reset the pen first.
        self.inner.write_all(b"\x1b[0m")?;
        self.pen = cells::Pen::default();
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> io::Result<Size> {
        Ok(self.size)
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        Ok(WindowSize {
            columns_rows: self.size,
            pixels: Size::default(),
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        Backend::flush(&mut self.inner)
    }
}
