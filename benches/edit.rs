//! The track editor (issue 64): a keystroke to its redrawn screen on a
//! 200 x 100 track (goal: p90 under 10 ms), the key applied and the
//! editor's screen drawn at 80x24 and 200x60; and the checks that run off
//! the keys' loop, per track size (`race::edit::check`).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use skid::input::keys::KeyName;
use skid::race::edit::{Editor, check};
use skid::track::bundled;
use skid::track::draft::Draft;

/// A 200 x 100 track: a road round a grass middle, finish,
/// checkpoint and a start slot.
fn big() -> Draft {
    let mut d = Draft::new(200, 100);
    for y in 5..95 {
        for x in 5..195 {
            let inner = (20..180).contains(&x) && (20..80).contains(&y);
            d.set(x, y, if inner { ' ' } else { '.' });
        }
    }
    for y in 5..20 {
        d.set(100, y, '=');
    }
    for y in 80..95 {
        d.set(100, y, '1');
    }
    d.set(95, 12, '>');
    d
}

/// Keystroke `n` on `editor`, to its screen drawn in `buf`'s `area`:
/// right and back in turn, painting each time (a stroke, a check asked of
/// the thread, a frame drawn).
fn keystroke(editor: &mut Editor, buf: &mut Buffer, area: Rect, n: u32) {
    let step = if n.is_multiple_of(2) {
        KeyName::Right
    } else {
        KeyName::Left
    };
    editor.key(step);
    editor.key(KeyName::Space);
    editor.poll();
    skid::ui::edit::edit(buf, area, editor);
}

/// An editor on [`big`] and a screen of `w` x `h` to draw it on.
fn screen(w: u16, h: u16) -> (Editor, Buffer, Rect) {
    let area = Rect::new(0, 0, w, h);
    (
        Editor::new(big(), "big.track".into(), true),
        Buffer::empty(area),
        area,
    )
}

/// Keystrokes to redrawn screens, each timed: the median, p90 and the
/// slowest of 2,000 at `w` x `h`, printed before criterion's figures.
fn spread(w: u16, h: u16) {
    let (mut editor, mut buf, area) = screen(w, h);
    let mut took: Vec<f64> = (0..2000u32)
        .map(|n| {
            let at = std::time::Instant::now();
            keystroke(&mut editor, &mut buf, area, n);
            at.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    took.sort_by(f64::total_cmp);
    println!(
        "key to screen, 200x100 at {w}x{h}: median {:.3} ms, p90 {:.3} ms, slowest {:.3} ms",
        took[1000], took[1800], took[1999]
    );
}

fn bench(c: &mut Criterion) {
    spread(80, 24);
    spread(200, 60);
    let mut g = c.benchmark_group("edit");
    for (w, h) in [(80u16, 24u16), (200, 60)] {
        let (mut editor, mut buf, area) = screen(w, h);
        let mut n = 0u32;
        g.bench_function(format!("key to screen 200x100 at {w}x{h}"), |b| {
            b.iter(|| {
                n += 1;
                keystroke(&mut editor, &mut buf, area, n);
                black_box(&buf);
            });
        });
    }
    let tracks = [
        ("pocket 53x19", Draft::read(bundled::TRACKS[0].1)),
        ("oval 200x100", big()),
        ("grandprix 446x130", {
            let (_, text) = bundled::TRACKS
                .iter()
                .find(|(n, _)| *n == "grandprix")
                .unwrap();
            Draft::read(text)
        }),
    ];
    for (name, draft) in tracks {
        let text = draft.text();
        let line = draft.map_line();
        g.bench_function(format!("check {name}"), |b| {
            b.iter(|| check::check(black_box(&text), line));
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
