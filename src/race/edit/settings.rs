//! The track's settings typed rather than drawn: its name, its laps and
//! the map's size, set in the front matter and the map as a person would
//! in the file (`Draft::set_front`, `Draft::resize`); not strokes, so
//! not undone with them.

use crate::input::keys::KeyName;

use super::Editor;

/// A setting being typed in the panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    pub setting: Setting,
    /// What is typed so far.
    pub text: String,
}

/// A setting of the track typed rather than drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// Its name (the front matter's).
    Name,
    /// The map's columns and rows, `WxH`.
    Size,
}

/// The longest name a track may be given here.
const NAME_MAX: usize = 40;

/// The largest map side the editor makes (the parser's limit is 8192;
/// past this a terminal shows too little of it to draw).
pub(super) const SIDE_MAX: usize = 1000;

impl Editor {
    /// The track's name, as its front matter sets it (or none).
    pub fn name(&self) -> Option<String> {
        self.draft.front("name")
    }

    /// The track's laps, as its front matter sets them (3 by default).
    pub fn laps(&self) -> u32 {
        (self.draft.front("laps"))
            .and_then(|l| l.parse().ok())
            .unwrap_or(3)
    }

    /// The laps one more or fewer (1 to 99).
    pub(super) fn add_laps(&mut self, by: i32) {
        let laps = self.laps().saturating_add_signed(by).clamp(1, 99);
        self.draft.set_front("laps", &laps.to_string());
        self.drawn();
    }

    /// Opens the prompt for `setting`, with what it is now.
    pub(super) fn ask(&mut self, setting: Setting) {
        let text = match setting {
            Setting::Name => self.name().unwrap_or_default(),
            Setting::Size => {
                let (w, h) = self.draft.size();
                format!("{w}x{h}")
            }
        };
        self.prompt = Some(Prompt { setting, text });
    }

    /// A character typed into the prompt (letters as typed: not a key's
    /// name, which has no case).
    pub fn typed(&mut self, c: char) {
        if let Some(p) = &mut self.prompt
            && !c.is_control()
            && p.text.chars().count() < NAME_MAX
        {
            p.text.push(c);
        }
    }

    /// The prompt's last character taken back.
    pub fn erase(&mut self) {
        if let Some(p) = &mut self.prompt {
            p.text.pop();
        }
    }

    /// A key while the prompt is open: Enter sets what is typed, Esc
    /// leaves the setting as it was.
    pub(super) fn prompted(&mut self, key: KeyName) {
        match key {
            KeyName::Esc => self.prompt = None,
            KeyName::Enter => {
                let Some(p) = self.prompt.take() else { return };
                if let Err(why) = self.set(p.setting, p.text.trim()) {
                    self.note = Some(why);
                    self.prompt = Some(p);
                }
            }
            KeyName::Space => self.typed(' '),
            _ => {}
        }
    }

    /// `setting` set to `text`, or why not.
    fn set(&mut self, setting: Setting, text: &str) -> Result<(), String> {
        match setting {
            Setting::Name if text.is_empty() => return Err("a name has a letter at least".into()),
            Setting::Name => {
                let value = toml::Value::String(text.to_string()).to_string();
                self.draft.set_front("name", &value);
            }
            Setting::Size => {
                let (most_w, most_h) = self.largest;
                let bad = || format!("{text:?}: a size is WxH, from 3x3 to {most_w}x{most_h}");
                let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
                let (w, h): (usize, usize) = (
                    w.trim().parse().map_err(|_| bad())?,
                    h.trim().parse().map_err(|_| bad())?,
                );
                if !(3..=most_w).contains(&w) || !(3..=most_h).contains(&h) {
                    return Err(bad());
                }
                self.draft.resize(w, h);
                self.cursor = (self.cursor.0.min(w - 1), self.cursor.1.min(h - 1));
                self.anchor = None;
                self.follow();
            }
        }
        self.note = None;
        self.drawn();
        Ok(())
    }
}
