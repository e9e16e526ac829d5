/* The capped buffer: growth, the cap, and that a refused append changes nothing. */
#include "config.h"
#include <stdlib.h>
#include "tap.h"
#include "util/buf.h"

int main(void)
{
	struct buf b;
	char *s;

	buf_init(&b, 10);
	is_int(buf_adds(&b, "hello"), 0, "append under the cap");
	is_int(buf_adds(&b, "world"), 0, "append up to the cap exactly");
	is_str(b.data, "helloworld", "contents");
	is_int(buf_adds(&b, "!"), -1, "append past the cap is refused");
	is_int(b.len, 10, "a refused append leaves the length");
	is_str(b.data, "helloworld", "a refused append leaves the contents");
	buf_reset(&b);
	is_int(b.len, 0, "reset empties");
	is_int(buf_printf(&b, "%d-%s", 42, "x"), 0, "printf");
	is_str(b.data, "42-x", "printf contents");
	s = buf_steal(&b);
	is_str(s, "42-x", "steal hands over the data");
	ok(b.data == NULL && b.len == 0, "steal leaves the buffer empty");
	free(s);
	buf_init(&b, 1 << 20);
	for (int i = 0; i < 10000; i++)
		buf_adds(&b, "0123456789");
	is_int(b.len, 100000, "many appends grow the buffer");
	buf_free(&b);
	buf_free(&b);
	ok(1, "buf_free twice is harmless");

	/* One byte at a time up to the cap, the same refusal past it. */
	buf_init(&b, 5);
	for (int i = 0; i < 5; i++)
		buf_addc(&b, (char)('a' + i));
	is_int(buf_addc(&b, 'z'), -1, "buf_addc past the cap fails");
	is_str(b.data, "abcde", "... and leaves the buffer as it was");
	buf_free(&b);
	buf_init(&b, 8);
	buf_adds(&b, "abc");
	is_int(buf_reserve(&b, 5), 0, "buf_reserve up to the cap");
	ok(b.alloc >= b.len + 5 + 1, "... makes room for the bytes and the NUL");
	is_int(buf_reserve(&b, 6), -1, "buf_reserve past the cap fails");
	is_str(b.data, "abc", "... and changes nothing");
	buf_free(&b);
	return tap_done();
}
