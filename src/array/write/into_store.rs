//! A new array written straight into a store: [`NewArray::put_typed`] and
//! [`NewArray::put`], python's `store[key] = blosc2.asarray(values, ...)`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use super::options::NewArray;
use crate::array::element::Element;
use crate::array::error::ArrayError;
use crate::container::StoreWriter;

/// Tells apart the staging files of one process.
static NEXT: AtomicU64 = AtomicU64::new(0);

impl NewArray {
    /// Writes the array from all of its elements, in C order, and puts it into `store`
    /// under `key` (added, or replacing the node there), as [`StoreWriter::put`] puts a
    /// `.b2nd`. The frame is written first to a file of its own in the temporary
    /// directory, removed once the node is in (or the put failed).
    ///
    /// ```
    /// use b2nd_meta::array::{write::NewArray, Array, Selection};
    /// use b2nd_meta::container::{self, StoreWriter};
    ///
    /// let dir = std::env::temp_dir().join(format!("b2nd-meta-doc-put-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("made.b2z");
    /// let _ = std::fs::remove_file(&path);
    /// let store = StoreWriter::create(&path, true)?;             // a TreeStore
    /// NewArray::new(&[2, 3], "<i4")?.put_typed(&store, "/g/a", &[1i32, 2, 3, 4, 5, 6])?;
    /// let node = Array::open_node(&container::open(&path)?, "/g/a")?;
    /// assert_eq!(node.shape(), [2, 3]);
    /// assert_eq!(node.read::<i32>(&Selection::all())?, [1, 2, 3, 4, 5, 6]);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn put_typed<T: Element>(
        &self,
        store: &StoreWriter,
        key: &str,
        values: &[T],
    ) -> Result<(), ArrayError> {
        self.put_with(store, key, |new, path| new.write_typed(path, values))
    }

    /// [`NewArray::put_typed`] from the elements' bytes, in C order, in the dtype's
    /// byte order.
    pub fn put(&self, store: &StoreWriter, key: &str, data: &[u8]) -> Result<(), ArrayError> {
        self.put_with(store, key, |new, path| new.write(path, data))
    }

    fn put_with(
        &self,
        store: &StoreWriter,
        key: &str,
        write: impl FnOnce(&NewArray, &PathBuf) -> Result<(), ArrayError>,
    ) -> Result<(), ArrayError> {
        StoreWriter::check_key(key)?;
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let name = std::format!(".b2nd-meta-put.{}.{n}.b2nd", std::process::id());
        let temp = std::env::temp_dir().join(name);
        let new = self.clone().sparse(false).overwrite(false);
        let done = write(&new, &temp).and_then(|()| store.put(key, &temp).map_err(Into::into));
        let _ = std::fs::remove_file(&temp);
        done
    }
}
