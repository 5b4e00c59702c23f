//! Keeping the drawing: to its file (`skid edit`), or, on a server, in
//! its database, which the server does when the editor asks
//! ([`Asked::Save`]) and answers ([`Editor::kept`]); publishing a track
//! kept there; and, once a raceable track is kept, its medals timed.

use crate::input::keys::KeyName;
use crate::physics::ModelKind;
use crate::physics::car::CarSpec;

use super::{Asked, Editor};

/// What a server knows of the track its editor draws.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Served {
    /// Whether the person came with a key: a guest's tracks are not
    /// kept.
    pub keyed: bool,
    /// Whether every lobby lists the track as kept.
    pub published: bool,
    /// The drawing being saved, and whether the checks said it races,
    /// until the server says what came of it.
    pub saving: Option<(String, bool)>,
}

/// What a guest is told who tries to keep a track.
pub const GUEST: &str = "a guest's tracks are not kept: connect with your SSH key to keep them";

impl Editor {
    /// Where the drawing is kept, as its screen says: the file's name,
    /// or on a server the track's own and whether it is published.
    pub fn kept_as(&self) -> String {
        match &self.served {
            None => {
                (self.path.file_name()).map_or(String::new(), |n| n.to_string_lossy().into_owned())
            }
            Some(served) => {
                let name = self.name().unwrap_or_else(|| "New track".into());
                let public = if served.published {
                    " · published"
                } else {
                    ""
                };
                format!("{name}{public}")
            }
        }
    }

    /// Saves the drawing; one that cannot be raced is saved as a draft
    /// only when asked twice (`twice`), after a warning. On a server,
    /// asks the server to.
    pub(super) fn save(&mut self, twice: bool) -> Asked {
        let raceable = self.checker.current() && self.checker.last.raceable();
        if !raceable && !twice {
            self.asked_once = Some(KeyName::Ctrl('s'));
            self.note = Some("not raceable yet: Ctrl-S again saves it as a draft".into());
            return Asked::Nothing;
        }
        let text = self.draft.text();
        let Some(served) = &mut self.served else {
            let written = crate::base::files::write_atomic(&self.path, text.as_bytes(), || Ok(()));
            let place = self.path.display().to_string();
            let place = written.map(|()| place).map_err(|e| e.to_string());
            self.kept(text, raceable, place);
            return Asked::Nothing;
        };
        if !served.keyed {
            self.note = Some(GUEST.into());
            return Asked::Nothing;
        }
        served.saving = Some((text, raceable));
        self.note = Some("saving…".into());
        Asked::Save
    }

    /// What came of keeping the drawing `text` (`raceable` as the checks
    /// said when it was saved): kept at `place` (the file's path, or the
    /// server's words), or not, and why. The track is unchanged since if
    /// the drawing is still `text`; its medals are timed if it races.
    /// A server's save is over.
    pub fn kept(&mut self, text: String, raceable: bool, place: Result<String, String>) {
        if let Some(served) = &mut self.served {
            served.saving = None;
        }
        let place = match place {
            Ok(place) => place,
            Err(why) => {
                self.note = Some(format!("not saved: {why}"));
                return;
            }
        };
        self.changed = self.draft.text() != text;
        let what = if raceable {
            "saved"
        } else {
            "saved as a draft"
        };
        self.note = Some(format!("{what}: {place}"));
        let Some(book) = self.book.as_mut().filter(|_| raceable) else {
            return;
        };
        if let Ok(track) = crate::track::parse("track", text.as_bytes()) {
            let (kind, spec) = (ModelKind::Arcade, CarSpec::default_for(ModelKind::Arcade));
            let key = crate::race::medals::book::key(&track, &spec, kind);
            let lookup = book.ask(key.clone(), &track, &spec, true);
            self.medals = Some((key, lookup));
        }
    }

    /// Publishing the track kept (a server's), once it is saved as it
    /// is; published, taking it back from every lobby, asked twice.
    pub(super) fn publish(&mut self, twice: bool) -> Asked {
        let Some(served) = &self.served else {
            self.note = Some("tracks are published on a server (skid serve)".into());
            return Asked::Nothing;
        };
        if !served.keyed {
            self.note = Some(GUEST.into());
        } else if self.changed {
            self.note = Some("save it first: Ctrl-S".into());
        } else if served.published && !twice {
            self.asked_once = Some(KeyName::Ctrl('p'));
            self.note = Some("published: Ctrl-P again takes it out of every lobby".into());
        } else {
            return Asked::Publish;
        }
        Asked::Nothing
    }
}
