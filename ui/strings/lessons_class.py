"""Strings of class mode on the Lessons page (teacher's box, students' answers, the live tally)."""

STRINGS = {
    "cl_box": {"en": "Class mode: run this lesson with a room", "zh": "课堂模式：和全班一起上这门课"},
    "cl_box_help": {
        "en": "Start a class to get a code, a link and a QR code for the projector. Students open the link on their "
              "own devices, see your step on your model and sentence, and answer the questions; you see their answers "
              "before you reveal. Answers are anonymous and are deleted after a day.",
        "zh": "开始上课后会得到一个课堂码、一个链接和一个二维码，可以投影给学生。学生在自己的设备上打开链接，就能看到你"
              "当前的步骤（使用你的模型和句子）并回答问题；揭晓答案之前，你可以看到大家的回答。回答是匿名的，一天后自动删除。"},
    "cl_start": {"en": "Start a class", "zh": "开始上课"},
    "cl_join": {"en": "Or join a class: type its code", "zh": "或加入课堂：输入课堂码"},
    "cl_shipped_only": {"en": "Class mode runs the lessons that come with Glassbox; your own lesson file runs in "
                              "this browser only.",
                        "zh": "课堂模式只能使用 Glassbox 自带的课程；你自己的课程文件只能在本浏览器中运行。"},
    "cl_teaching": {"en": "You are teaching class {code}", "zh": "你正在主持课堂 {code}"},
    "cl_code_big": {"en": "## Class code: {code}", "zh": "## 课堂码：{code}"},
    "cl_link": {"en": "Students open {url}", "zh": "学生请打开 {url}"},
    "cl_qr": {"en": "Scan to join", "zh": "扫码加入"},
    "cl_end": {"en": "End the class (deletes its answers)", "zh": "结束课堂（删除所有回答）"},
    "cl_student": {"en": "You are in class {code}: your page follows the teacher's steps.",
                   "zh": "你已加入课堂 {code}：页面会跟随老师的步骤。"},
    "cl_unknown_lesson": {"en": "This class runs the lesson “{lesson}”, which this server does not have.",
                          "zh": "这个课堂使用的课程“{lesson}”在本服务器上不存在。"},
    "cl_send": {"en": "Send my answer", "zh": "提交我的答案"},
    "cl_sent": {"en": "Sent: {answer}. You may change it until the teacher reveals.",
                "zh": "已提交：{answer}。老师揭晓之前你还可以修改。"},
    "cl_wait_reveal": {"en": "The teacher reveals the answer for everyone.", "zh": "老师会为全班统一揭晓答案。"},
    "cl_following": {"en": "Following class {code}: this page moves when the teacher does.",
                     "zh": "正在跟随课堂 {code}：老师翻页时，本页面会自动跟着翻。"},
    "cl_tally": {"en": "**Answers so far: {n}**", "zh": "**目前已有 {n} 人回答**"},
    "cl_col_answer": {"en": "answer", "zh": "答案"},
    "cl_col_count": {"en": "students", "zh": "人数"},
}
