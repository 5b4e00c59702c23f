//! Files written and read safely, for every store of the game (records,
//! medals, a server's data): a directory made where a file is not, a
//! bounded read that never blocks or follows a link unasked, and an
//! atomic write (a temporary file, fsynced, renamed over the old one, the
//! folder fsynced: a crash leaves the old file or the new one).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Makes the directory `path` (and its parents) if it is not there.
/// One that is a file already says "not a directory", not what making a
/// directory over a file says ("File exists").
pub fn make_dir(path: &Path) -> io::Result<()> {
    if path.exists() && !path.is_dir() {
        return Err(io::Error::other("not a directory"));
    }
    fs::create_dir_all(path)
}

/// Reads at most `max` bytes of the regular file at `path`. It is opened
/// without blocking (a FIFO with no writer does not hang the open) and,
/// with `follow` false, without following a symbolic link; anything but a
/// regular file (a FIFO, a device such as /dev/zero, a directory) and
/// anything larger than `max` is refused with an error saying so.
pub fn read_capped(path: &Path, max: u64, follow: bool) -> io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    use std::os::unix::fs::OpenOptionsExt;
    let mut flags = libc::O_NONBLOCK;
    if !follow {
        flags |= libc::O_NOFOLLOW;
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "not a regular file"));
    }
    if meta.len() > max {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!("larger than {} MiB", max >> 20),
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!("larger than {} MiB", max >> 20),
        ));
    }
    Ok(bytes)
}

/// Writes `bytes` to `path` atomically. `before_rename` runs once the
/// temporary file is complete (tests use it to stand in for a crash).
pub fn write_atomic(
    path: &Path,
    bytes: &[u8],
    before_rename: impl FnOnce() -> io::Result<()>,
) -> io::Result<()> {
    // A bare file name's directory is the current one (its parent is
    // the empty path, which cannot be opened to sync).
    let dir = (path.parent())
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let (tmp, mut f) = create_temp(dir, path)?;
    let result = (|| {
        f.write_all(bytes)?;
        f.sync_all()?;
        before_rename()?;
        fs::rename(&tmp, path)?;
        File::open(dir)?.sync_all()
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// A new temporary file beside `path`, created exclusively and never
/// through a symbolic link (`O_EXCL | O_NOFOLLOW`): whatever already has
/// its name, a file or a link planted there, is left alone and another
/// name tried.
fn create_temp(dir: &Path, path: &Path) -> io::Result<(PathBuf, File)> {
    use std::os::unix::fs::OpenOptionsExt;
    use std::sync::atomic::{AtomicU32, Ordering};
    static COUNT: AtomicU32 = AtomicU32::new(0);
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let mut last = None;
    for _ in 0..16 {
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.tmp-{}-{n}", std::process::id()));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW)
            .mode(0o644)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}
