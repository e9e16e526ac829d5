/* Places shared by the processes of one host, at most N taken at once:
 * place i is a lock on byte i of one file, held by an open file
 * description (F_OFD_SETLK), so a place is free again as soon as its
 * holder gives it back, and when the holder dies, whatever killed it.
 * Nothing is written to the file. */
#ifndef AV_HOSTSLOT_H
#define AV_HOSTSLOT_H

/* Takes a free place among the first max of the file at path (created,
 * mode 0660 under the umask, if missing). 0: taken, *fd is the
 * descriptor to give back; 1: every place is taken; -1: the file cannot
 * be opened or locked (errno). */
int hostslot_take(const char *path, long max, int *fd);
/* Gives the place back (closes *fd, sets it to -1); nothing when *fd < 0. */
void hostslot_give(int *fd);

#endif
