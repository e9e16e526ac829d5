/* Whether a request names what the note is about (seed 001 §5.1): the
 * supervisor's own check on top of the clarity answer, so 写点东西给大家
 * 看看 or "write something for me" is asked its topic whoever rated it. */
#ifndef AV_WF_NOTE_VAGUE_H
#define AV_WF_NOTE_VAGUE_H

/* 1 when every word of text only asks for a note (写, 一篇, 笔记, 给大家,
 * 看看, something, for me…) and none names a subject; NULL or "" is
 * vague. */
int note_vague(const char *text);

#endif
