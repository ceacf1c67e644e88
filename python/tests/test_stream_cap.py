"""stream_cap: what a cell's stream sends when it prints more than the head and tail."""

from __future__ import annotations

import unittest
from typing import List

from argus.stream_cap import StreamCap


class StreamCapTest(unittest.TestCase):
    def setUp(self) -> None:
        self.sent: List[str] = []
        self.cap = StreamCap(self.sent.append, head=10, tail=8)

    def test_small_output_passes_live_and_unchanged(self) -> None:
        self.assertEqual(self.cap.write("hello\n"), 6)
        self.assertEqual(self.sent, ["hello\n"])
        self.cap.finish()
        self.assertEqual(self.sent, ["hello\n"])

    def test_big_output_sends_the_head_live_then_a_note_and_the_tail_at_the_end(self) -> None:
        for i in range(100):
            self.cap.write(f"{i:03d}\n")
        self.assertEqual("".join(self.sent), "000\n001\n00")
        self.cap.finish()
        text = "".join(self.sent)
        self.assertTrue(text.startswith("000\n001\n00"))
        self.assertTrue(text.endswith("098\n099\n"))
        total = 400
        self.assertIn(f"[... {total - 10 - 8} characters of output omitted ...]", text)

    def test_each_cell_starts_afresh(self) -> None:
        self.cap.write("x" * 30)
        self.cap.finish()
        self.sent.clear()
        self.cap.write("abc")
        self.assertEqual(self.sent, ["abc"])

    def test_one_huge_write_keeps_only_its_end(self) -> None:
        self.cap.write("a" * 10 + "b" * 1000 + "END12345")
        self.cap.finish()
        self.assertEqual("".join(self.sent), "a" * 10 + "\n[... 1000 characters of output omitted ...]\nEND12345")

    def test_non_text_is_left_to_the_stream(self) -> None:
        def stream_write(text: object) -> int:
            if not isinstance(text, str):
                raise TypeError("write() argument must be str")
            return len(text)

        with self.assertRaises(TypeError):
            StreamCap(stream_write).write(b"bytes")


if __name__ == "__main__":
    unittest.main()
