"""Strings of several replicas behind a proxy (the replica's name, a page that moved to another one)."""

STRINGS = {
    "replica_marker": {"en": "Server: {name}", "zh": "服务器：{name}"},
    "replica_moved": {
        "en": "The server this page was using stopped, so it reconnected to another one ({name}). Your page, "
              "text, model and view came with the link. Anything made only in the old session (models trained or "
              "uploaded there, the guesses counted on a lesson step) stayed on that server: train or upload it "
              "again if you need it.",
        "zh": "本页原来使用的服务器已停止，页面已自动连接到另一台服务器（{name}）。页面、文本、模型和视图都随链接保留了下来。"
              "只存在于原会话中的内容（在那里训练或上传的模型、课程步骤上统计的猜测次数）留在了原服务器上：如有需要，请重新训练或上传。"},
    "replica_ok": {"en": "OK", "zh": "知道了"},
    "replica_restarted": {
        "en": "The server restarted, so this page reconnected. Your page, text, model and view came with the link; "
              "models trained or uploaded in the old session were lost with it.",
        "zh": "服务器已重启，本页已重新连接。页面、文本、模型和视图都随链接保留了下来；在原会话中训练或上传的模型已随之丢失。"},
}
