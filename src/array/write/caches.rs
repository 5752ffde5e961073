//! The machine's caches as python-blosc2 4.14.1 reads them (`get_cpu_info` in
//! `blosc2/core.py`), so that default chunks and blocks are the ones python would
//! choose here.

use std::path::Path;

use super::defaults::{Caches, Platform};

/// python's sizes when it finds none: 32 KiB, 256 KiB, 1 MiB.
const FALLBACK: (u64, u64, u64) = (32 << 10, 256 << 10, 1 << 20);

impl Caches {
    /// This machine's caches as python-blosc2 reads them: on Linux the sizes in
    /// `/sys/devices/system/cpu/cpu0/cache/index{0,2,3}/size` (the L1 data, L2 and L3
    /// caches of the first CPU), elsewhere python's fallback sizes (python asks macOS's
    /// `sysctl` and Windows' API, which this crate does not).
    ///
    /// ```
    /// let caches = b2nd_meta::array::write::Caches::of_this_machine();
    /// assert!(caches.l1_data.is_some());
    /// ```
    pub fn of_this_machine() -> Caches {
        let platform = if cfg!(target_arch = "x86_64") {
            Platform::X86_64
        } else if cfg!(all(target_os = "macos", target_arch = "aarch64")) {
            Platform::AppleArm
        } else {
            Platform::Other
        };
        let size = |index: u32, fallback: u64| {
            if !cfg!(target_os = "linux") {
                return fallback;
            }
            let path = std::format!("/sys/devices/system/cpu/cpu0/cache/index{index}/size");
            sysfs_size(Path::new(&path)).unwrap_or(fallback)
        };
        Caches {
            platform,
            l1_data: Some(size(0, FALLBACK.0)),
            l2: Some(size(2, FALLBACK.1)),
            l3: Some(size(3, FALLBACK.2)),
        }
    }
}

/// A size as sysfs writes it (`48K`, `2M`), as python parses it; `None` when the file
/// does not read or has another form.
fn sysfs_size(path: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let text = text.strip_suffix('\n')?;
    let (digits, shift) = match text.as_bytes().last()? {
        b'K' => (&text[..text.len() - 1], 10),
        b'M' => (&text[..text.len() - 1], 20),
        b'G' => (&text[..text.len() - 1], 30),
        _ => return None,
    };
    digits.parse::<u64>().ok()?.checked_mul(1 << shift)
}
