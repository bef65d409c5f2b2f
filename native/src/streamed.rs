//! Decoding a value from a file through a small window (behaviour §5.1,
//! "Rule changes"): the project cache's index, 1.7 MB for 10,000 rules, is
//! read 64 KiB at a time, so a warm run holds what it decoded and not the
//! file's bytes beside it. A mapping would not do: the kernel maps a
//! file's cached pages in whole folios, megabytes at a time, at the first
//! byte read.

use std::fs::File;
use std::os::unix::fs::FileExt;

use postcard::de_flavors::Flavor;
use serde::de::DeserializeOwned;

const WINDOW: usize = 64 * 1024;

/// The value encoded in `file` from `at` on, read no further than `end`,
/// and where its encoding ends.
pub(crate) fn decode<T: DeserializeOwned>(file: &File, at: u64, end: u64) -> Option<(T, u64)> {
    let mut decoder = postcard::Deserializer::from_flavor(Streamed {
        file,
        next: at,
        end,
        window: Vec::new(),
        read: 0,
        long: Vec::new(),
    });
    let value = T::deserialize(&mut decoder).ok()?;
    let ended = decoder.finalize().ok()?;
    Some((value, ended))
}

/// postcard's source over the file.
struct Streamed<'f> {
    file: &'f File,
    /// The file's offset just past the window.
    next: u64,
    /// Where reading stops.
    end: u64,
    window: Vec<u8>,
    /// How much of the window is decoded.
    read: usize,
    /// A take the window does not hold whole, copied apart; dropped at the
    /// next take, so it is held only while its value is copied out.
    long: Vec<u8>,
}

const END: postcard::Error = postcard::Error::DeserializeUnexpectedEnd;

impl Streamed<'_> {
    /// The window refilled from the file; false at the end.
    fn refill(&mut self) -> bool {
        let left = (self.end - self.next).min(WINDOW as u64) as usize;
        self.window.resize(left, 0);
        self.read = 0;
        if left == 0
            || self
                .file
                .read_exact_at(&mut self.window, self.next)
                .is_err()
        {
            self.window.clear();
            return false;
        }
        self.next += left as u64;
        true
    }

    /// The file's offset of the next byte to decode.
    fn at(&self) -> u64 {
        self.next - (self.window.len() - self.read) as u64
    }

    /// The next byte, the window refilled first.
    #[cold]
    fn pop_refilled(&mut self) -> postcard::Result<u8> {
        if !self.refill() {
            return Err(END);
        }
        self.read = 1;
        Ok(self.window[0])
    }
}

impl<'de, 'f: 'de> Flavor<'de> for Streamed<'f> {
    type Remainder = u64;
    type Source = &'f File;

    // Every integer's every byte comes through here.
    #[inline]
    fn pop(&mut self) -> postcard::Result<u8> {
        match self.window.get(self.read) {
            Some(&byte) => {
                self.read += 1;
                Ok(byte)
            }
            None => self.pop_refilled(),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        usize::try_from(self.end - self.at()).ok()
    }

    /// Nothing kept in the cache borrows from it: what is decoded is owned.
    fn try_take_n(&mut self, _count: usize) -> postcard::Result<&'de [u8]> {
        Err(END)
    }

    fn try_take_n_temp<'a>(&'a mut self, count: usize) -> postcard::Result<&'a [u8]>
    where
        'de: 'a,
    {
        if self.long.capacity() > 0 {
            self.long = Vec::new();
        }
        let in_window = self.window.len() - self.read;
        if count <= in_window {
            self.read += count;
            return Ok(&self.window[self.read - count..self.read]);
        }
        if count as u64 > self.end - self.at() {
            return Err(END);
        }
        // The rest of the window, then the file beyond it.
        let mut long = Vec::with_capacity(count);
        long.extend_from_slice(&self.window[self.read..]);
        long.resize(count, 0);
        self.file
            .read_exact_at(&mut long[in_window..], self.next)
            .map_err(|_| END)?;
        self.next += (count - in_window) as u64;
        self.window.clear();
        self.read = 0;
        self.long = long;
        Ok(&self.long)
    }

    fn finalize(self) -> postcard::Result<u64> {
        Ok(self.at())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value of many windows, strings across their edges and one longer
    /// than a window, reads back whole, and says where it ended; a cut
    /// encoding, or one read past its end, is refused.
    #[test]
    fn a_value_decodes_whole_through_the_window() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("values.bin");
        let mut value: Vec<String> = (0..30_000).map(|i| format!("value {i}")).collect();
        value.insert(1000, "long ".repeat(WINDOW / 2));
        let mut bytes = b"lead".to_vec();
        bytes.extend(postcard::to_stdvec(&value).unwrap());
        let end = bytes.len() as u64;
        bytes.extend(b"tail");
        std::fs::write(&path, &bytes).unwrap();
        assert!(end > 4 * WINDOW as u64, "the value spans many windows");
        let file = File::open(&path).unwrap();
        let read = decode::<Vec<String>>(&file, 4, bytes.len() as u64);
        assert_eq!(read, Some((value.clone(), end)));
        assert_eq!(decode::<Vec<String>>(&file, 4, end), Some((value, end)));
        assert_eq!(decode::<Vec<String>>(&file, 4, end - 3), None);
    }
}
