/* The chat assistant (seed 004): every user turn is routed (the model
 * first, the intent rules when the model fails or is unsure) to one of
 * four routes, each a node, each with its fallback chain:
 *   router      the route, its gates, intent_detected       (chat_route.c)
 *   image_gen   prompt rewrite, the image provider;          (chat_tools.c)
 *               failure: the search check, then chat
 *   web_search  facts (search, then the search-chat          (chat_tools.c)
 *               fallback; offline the notes corpus) into the
 *               system message; failure: chat
 *   time_query  the local clock, no model; a place named is  (chat_time.c,
 *               answered in its zone                         chat_zones.c)
 *   chat        the chat model, streamed                     (chat_reply.c)
 *   vision      a turn's pictures described, then search     (chat_vision.c)
 *               when the text asks for it, then chat
 * The thread is the conversation: state.messages holds the turns, bounded
 * by [workflow.chat] history_turns (chat_common.c).
 * Files: chat.c (the descriptor, its init and turn hooks), chat_common.h
 * and .c (what the nodes share), the nodes' files above, chat_rules.h
 * (the offline rules, chat_rules.c, chat_prompt.c and chat_offline.c),
 * chat_zones.h (the places the clock knows: chat_zones_table.c, generated
 * by contrib/gen/cldr_zones.py). */
#ifndef AV_WF_CHAT_H
#define AV_WF_CHAT_H
#include <stddef.h>
#include "engine/graph.h"
#include "text/msg.h"
#include "wf/chat/chat_common.h"

extern const struct workflow wf_chat;
/* Its words (chat_msg.c). The descriptor needs their number as a
 * constant: CHAT_NMSGS, checked against the rows where they are written. */
#define CHAT_NMSGS 55
extern const struct msg_def chat_msgs[];
extern const size_t chat_nmsgs;

#endif
